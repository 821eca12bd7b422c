/** The admin portal's subscriptions list: newest first, by tier, status and username or email text. */
import type { Kysely } from 'kysely';
import { ADMIN_SUBSCRIPTION_MESSAGES, type AdminSubscriptionRow, type AdminSubscriptionStatus } from '../../../shared/schemas/admin-subscriptions.ts';
import type { DB } from '../../platform/db/schema.ts';
import { containsPattern, decodeCursor, KEYSET_IDS, keysetPage } from '../../platform/http/keyset.ts';
import { listAdminSubscriptions } from './repository.ts';

export interface SubscriptionListQuery {
  tier?: 'free' | 'pro';
  status?: AdminSubscriptionStatus;
  q?: string;
  limit: number;
  cursor?: string;
}

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export async function subscriptionPage(db: Kysely<DB>, q: SubscriptionListQuery): Promise<{ subscriptions: AdminSubscriptionRow[]; next_cursor: string | null }> {
  const text = q.q?.trim();
  const rows = await listAdminSubscriptions(db, {
    tier: q.tier,
    status: q.status,
    pattern: text ? containsPattern(text) : null,
    before: q.cursor ? decodeCursor(q.cursor, KEYSET_IDS.uuid, ADMIN_SUBSCRIPTION_MESSAGES.badCursor) : null,
    limit: q.limit + 1,
  });
  const { shown, next_cursor } = keysetPage(rows, q.limit);
  return {
    subscriptions: shown.map((r) => ({
      id: r.id,
      user: { id: r.user_id, username: r.username, email: r.email, display_name: r.display_name },
      tier: r.tier,
      status: r.status,
      is_third_tier: r.is_third_tier,
      trial_end: iso(r.trial_end),
      current_period_end: iso(r.current_period_end),
      cancel_at_period_end: r.cancel_at_period_end,
      created_at: new Date(r.created_at).toISOString(),
    })),
    next_cursor,
  };
}
