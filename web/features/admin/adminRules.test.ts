import { describe, expect, it } from 'vitest';
import { adminLogsRoute, adminUsersRoute } from '../../../shared/schemas/admin.ts';
import { adminVideosRoute } from '../../../shared/schemas/moderation.ts';
import { buildUrl } from '../../lib/api.ts';
import {
  centsToDollars,
  checkThreshold,
  currentPeriod,
  dollarsToCents,
  fulfilmentLabel,
  listKey,
  logsQuery,
  ordersQuery,
  payoutsQuery,
  payoutStatusLabel,
  shortOrderId,
  subscriptionsQuery,
  subscriptionStatusLabel,
  THRESHOLD_RANGE_MESSAGE,
  USER_PAGE_SIZES,
  userActions,
  usersQuery,
  videoActions,
  videosQuery,
  videoStatusLabel,
} from './adminRules.ts';

describe('userActions (spec section 4)', () => {
  it('an active user: Suspend and Delete enabled, Activate disabled', () => {
    const a = userActions({ id: 'u2', status: 'active' }, 'u1');
    expect(a.suspend).toEqual({ shown: true, disabled: false });
    expect(a.activate).toEqual({ shown: true, disabled: true });
    expect(a.remove).toEqual({ shown: true, disabled: false });
  });
  it('a suspended user: Suspend disabled, Activate enabled', () => {
    const a = userActions({ id: 'u2', status: 'suspended' }, 'u1');
    expect(a.suspend.disabled).toBe(true);
    expect(a.activate.disabled).toBe(false);
  });
  it("the admin's own row has no Suspend and no Delete", () => {
    const a = userActions({ id: 'u1', status: 'active' }, 'u1');
    expect(a.suspend.shown).toBe(false);
    expect(a.remove.shown).toBe(false);
    expect(a.activate).toEqual({ shown: true, disabled: true });
  });
  it('every button is disabled while an action on the row runs', () => {
    const a = userActions({ id: 'u2', status: 'suspended' }, 'u1', true);
    expect([a.suspend.disabled, a.activate.disabled, a.remove.disabled]).toEqual([true, true, true]);
  });
});

describe('videoActions (spec section 4)', () => {
  it('pending: approve and reject enabled', () => {
    const a = videoActions({ verification_status: 'pending' });
    expect([a.approve.disabled, a.reject.disabled, a.remove.disabled]).toEqual([false, false, false]);
  });
  it('approved, or verified at sign-in: approve disabled', () => {
    for (const status of ['approved', 'verified_via_supabase_auth'] as const) {
      const a = videoActions({ verification_status: status });
      expect(a.approve.disabled).toBe(true);
      expect(a.reject.disabled).toBe(false);
    }
  });
  it('rejected: reject disabled', () => {
    const a = videoActions({ verification_status: 'rejected' });
    expect(a.approve.disabled).toBe(false);
    expect(a.reject.disabled).toBe(true);
  });
  it('labels', () => {
    expect(videoStatusLabel('pending')).toBe('Pending');
    expect(videoStatusLabel('rejected')).toBe('Rejected');
    expect(videoStatusLabel('verified_via_supabase_auth')).toBe('Approved (verified at sign-in)');
  });
});

describe('filters to queries', () => {
  it('users: 20 a page by default, 50 and 100 offered; blank search and All are left out', () => {
    expect(USER_PAGE_SIZES).toEqual([20, 50, 100]);
    expect(buildUrl(adminUsersRoute.url, undefined, usersQuery({ q: '  ', status: 'all', limit: 20 }))).toBe('/api/admin/users?limit=20');
    expect(buildUrl(adminUsersRoute.url, undefined, usersQuery({ q: ' Ann ', status: 'suspended', limit: 50 }, 'abc_1'))).toBe(
      '/api/admin/users?q=Ann&status=suspended&limit=50&cursor=abc_1',
    );
  });
  it('users: a search longer than the server takes is cut to 100 characters', () => {
    expect(usersQuery({ q: 'x'.repeat(150), status: 'all', limit: 20 }).q).toHaveLength(100);
  });
  it('videos: status and text, 20 a page', () => {
    expect(buildUrl(adminVideosRoute.url, undefined, videosQuery({ status: 'pending', q: '' }))).toBe('/api/admin/videos?status=pending&limit=20');
    expect(buildUrl(adminVideosRoute.url, undefined, videosQuery({ status: 'all', q: 'cat' }, 'c1'))).toBe('/api/admin/videos?q=cat&limit=20&cursor=c1');
  });
  it('logs: 50 a page, by action and target type', () => {
    expect(buildUrl(adminLogsRoute.url, undefined, logsQuery({ actionType: 'all', targetType: 'all' }, 50))).toBe('/api/admin/logs?limit=50');
    expect(buildUrl(adminLogsRoute.url, undefined, logsQuery({ actionType: 'suspend_user', targetType: 'user' }, 50, 'n2'))).toBe(
      '/api/admin/logs?action_type=suspend_user&target_type=user&limit=50&cursor=n2',
    );
  });
  it('a list key changes with any filter or a retry, never with the cursor', () => {
    const a = listKey(usersQuery({ q: 'a', status: 'all', limit: 20 }), 0);
    expect(listKey(usersQuery({ q: 'a', status: 'all', limit: 20 }), 0)).toBe(a);
    expect(listKey(usersQuery({ q: 'a', status: 'all', limit: 50 }), 0)).not.toBe(a);
    expect(listKey(usersQuery({ q: 'a', status: 'all', limit: 20 }), 1)).not.toBe(a);
  });
});

describe('dollars and cents (payout threshold)', () => {
  it('shows cents as dollars', () => {
    expect(centsToDollars(5000)).toBe('50.00');
    expect(centsToDollars(105)).toBe('1.05');
    expect(centsToDollars(100_000)).toBe('1000.00');
  });
  it('reads dollars as typed, without floating point', () => {
    expect(dollarsToCents('50')).toBe(5000);
    expect(dollarsToCents(' 50.5 ')).toBe(5050);
    expect(dollarsToCents('$1,000.00')).toBe(100_000);
    expect(dollarsToCents('0.29')).toBe(29);
    expect(dollarsToCents('12.345')).toBeNull();
    expect(dollarsToCents('-5')).toBeNull();
    expect(dollarsToCents('abc')).toBeNull();
    expect(dollarsToCents('')).toBeNull();
  });
  it('round-trips', () => {
    for (const cents of [100, 2599, 5000, 100_000]) expect(dollarsToCents(centsToDollars(cents))).toBe(cents);
  });
  it('checks the range the server allows ($1.00 to $1,000.00) before saving', () => {
    expect(checkThreshold('25')).toEqual({ cents: 2500 });
    expect(checkThreshold('1')).toEqual({ cents: 100 });
    expect(checkThreshold('1000')).toEqual({ cents: 100_000 });
    expect(checkThreshold('0.99')).toEqual({ error: THRESHOLD_RANGE_MESSAGE });
    expect(checkThreshold('1000.01')).toEqual({ error: THRESHOLD_RANGE_MESSAGE });
    expect(THRESHOLD_RANGE_MESSAGE).toBe('Enter an amount from $1.00 to $1,000.00.');
    expect(checkThreshold('fifty')).toEqual({ error: 'Enter an amount in dollars, like 50.00.' });
  });
});

describe('orders, subscriptions and payouts', () => {
  it('orders: the search trimmed, a status or all', () => {
    expect(ordersQuery({ q: '  a@b.c ', status: 'all' }, 20)).toEqual({ q: 'a@b.c', status: undefined, limit: 20, cursor: undefined });
    expect(ordersQuery({ q: '', status: 'refunded' }, 20, 'c')).toEqual({ q: undefined, status: 'refunded', limit: 20, cursor: 'c' });
  });
  it('the order number is the id\'s first 8 hex digits, as buyers see it', () => {
    expect(shortOrderId('0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d')).toBe('0A1B2C3D');
    expect(fulfilmentLabel('failed')).toBe('Failed');
    expect(fulfilmentLabel('none')).toBe('Not sent');
  });
  it('subscriptions: tier, status and search', () => {
    expect(subscriptionsQuery({ q: ' x ', tier: 'pro', status: 'all' }, 20)).toEqual({ q: 'x', tier: 'pro', status: undefined, limit: 20, cursor: undefined });
    expect(subscriptionsQuery({ q: '', tier: 'all', status: 'past_due' }, 20).status).toBe('past_due');
    expect(subscriptionStatusLabel('past_due')).toBe('Payment retrying');
  });
  it('payouts: period and status; labels', () => {
    expect(payoutsQuery({ period: '2026-10', status: 'failed' }, 20)).toEqual({ period: '2026-10', status: 'failed', limit: 20, cursor: undefined });
    expect(payoutsQuery({ period: 'all', status: 'all' }, 20, 'n')).toEqual({ period: undefined, status: undefined, limit: 20, cursor: 'n' });
    expect(payoutStatusLabel('processing')).toBe('Processing');
    expect(currentPeriod(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
  });
});
