/** Rows as the admin API answers them, for the tests of this feature. */
import type { AdminLogEntry, AdminUserRow, DashboardStats } from '../../../shared/schemas/admin.ts';
import type { ModerationVideo } from '../../../shared/schemas/moderation.ts';

export const STATS: DashboardStats = {
  total_users: 1234,
  active_users: 1200,
  suspended_users: 34,
  total_videos: 88,
  pending_videos: 5,
  approved_videos: 80,
  total_subscriptions: 40,
  active_subscriptions: 30,
  premium_subscriptions: 12,
  creator_network_subscriptions: 3,
  total_orders: 17,
  paid_orders: 15,
  revenue_cents: 123_456,
  pending_payouts_cents: 5_000,
  failed_jobs: 2,
};

export const ENTRY: AdminLogEntry = {
  id: 7,
  admin_user_id: '11111111-1111-4111-8111-111111111111',
  admin_display_name: 'Ada Admin',
  action_type: 'suspend_user',
  target_type: 'user',
  target_id: '22222222-2222-4222-8222-222222222222',
  details: { reason: 'spam', count: 2 },
  created_at: '2026-11-26T12:30:00.000Z',
};

export const ADMIN: AdminUserRow = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'ada@example.com',
  username: 'ada',
  display_name: 'Ada Admin',
  role: 'creator',
  is_admin: true,
  status: 'active',
  created_at: '2026-01-02T10:00:00.000Z',
  videos_count: 0,
};

export const MAKER: AdminUserRow = {
  id: '22222222-2222-4222-8222-222222222222',
  email: 'maker@example.com',
  username: 'maker',
  display_name: 'Mia Maker',
  role: 'creator',
  is_admin: false,
  status: 'active',
  created_at: '2026-03-04T10:00:00.000Z',
  videos_count: 3,
};

export const SUSPENDED: AdminUserRow = { ...MAKER, id: '33333333-3333-4333-8333-333333333333', username: 'sam', display_name: 'Sam Spam', email: 'sam@example.com', status: 'suspended', role: 'customer' };

export const VIDEO: ModerationVideo = {
  id: '44444444-4444-4444-8444-444444444444',
  title: 'Sunset over the bay',
  thumbnail_url: '/media/thumbnails/sunset.jpg',
  verification_status: 'pending',
  created_at: '2026-11-20T09:00:00.000Z',
  creator: { id: MAKER.id, display_name: 'Mia Maker', username: 'maker' },
};
