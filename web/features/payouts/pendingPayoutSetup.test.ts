/** After sign-in: the kept values are saved through the API and deleted; bank numbers never linger. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAYOUT_MESSAGES } from '../../../shared/schemas/payouts.ts';
import {
  flushPendingPayoutSetup,
  parsePending,
  PENDING_PAYOUT_KEY,
  PENDING_PAYOUT_MAX_AGE_MS,
  PENDING_PAYOUT_VERSION,
  type PendingPayoutSetup,
} from './pendingPayoutSetup.ts';

const idb = vi.hoisted(() => {
  const map = new Map<string, unknown>();
  return {
    map,
    createStore: () => 'pending-payouts-store',
    get: async (key: string) => map.get(key),
    set: async (key: string, value: unknown) => void map.set(key, structuredClone(value)),
    del: async (key: string) => void map.delete(key),
  };
});
vi.mock('idb-keyval', () => ({ createStore: idb.createStore, get: vi.fn(idb.get), set: vi.fn(idb.set), del: vi.fn(idb.del) }));

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const SETUP = {
  preferred_payment_method: null,
  payout_enabled: true,
  paypal_email: null,
  ach: null,
  stripe_connect: null,
  tax_email: null,
  tax_info_verified: false,
  payout_threshold_cents: 5000,
};

const ACH = { method: 'ach', routing_number: '021000021', account_number: '000123456789', holder_name: 'Ada', account_type: 'savings' } as const;
const entry = (change: Partial<PendingPayoutSetup> = {}): PendingPayoutSetup => ({ version: PENDING_PAYOUT_VERSION, savedAt: Date.now(), method: ACH, ...change });

/** What the save calls sent, in order. */
const sent = () => fetchMock.mock.calls.map(([url, init]) => [init.method, url, JSON.parse(String(init.body))]);

beforeEach(() => {
  idb.map.clear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('flushPendingPayoutSetup', () => {
  it('does nothing when nothing is kept', async () => {
    expect(await flushPendingPayoutSetup()).toEqual({ result: 'none' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves the method, deletes the entry, then saves the payment email', async () => {
    idb.map.set(PENDING_PAYOUT_KEY, entry({ taxEmail: 'tax@example.com' }));
    let keptWhenTaxSent: unknown = 'not sent';
    fetchMock.mockImplementation(async (url) => {
      if (url === '/api/payouts/tax-info') keptWhenTaxSent = idb.map.get(PENDING_PAYOUT_KEY);
      return json(200, { success: true, setup: SETUP });
    });
    expect(await flushPendingPayoutSetup()).toEqual({ result: 'saved', method: 'ach', onboardingUrl: null, taxEmailSaved: true });
    expect(sent()).toEqual([
      ['PUT', '/api/payouts/method', ACH],
      ['PUT', '/api/payouts/tax-info', { email: 'tax@example.com' }],
    ]);
    // The bank numbers were gone before anything else was sent.
    expect(keptWhenTaxSent).toBeUndefined();
    expect(idb.map.has(PENDING_PAYOUT_KEY)).toBe(false);
  });

  it("hands on Stripe Connect's onboarding address; a skipped step 2 sends no email", async () => {
    idb.map.set(PENDING_PAYOUT_KEY, entry({ method: { method: 'stripe_connect', email: 'ada@example.com' } }));
    fetchMock.mockResolvedValue(json(200, { success: true, setup: SETUP, onboarding_url: '/pay/connect/onboard/acct_1' }));
    expect(await flushPendingPayoutSetup()).toEqual({ result: 'saved', method: 'stripe_connect', onboardingUrl: '/pay/connect/onboard/acct_1', taxEmailSaved: null });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('deletes an entry the server refuses for good, keeps one it could not take yet', async () => {
    idb.map.set(PENDING_PAYOUT_KEY, entry());
    fetchMock.mockResolvedValueOnce(json(503, { success: false, error: 'Service unavailable', code: 'UNAVAILABLE' }));
    expect(await flushPendingPayoutSetup()).toEqual({ result: 'failed', message: 'Service unavailable', kept: true });
    expect(idb.map.has(PENDING_PAYOUT_KEY)).toBe(true);

    fetchMock.mockResolvedValueOnce(json(400, { success: false, error: PAYOUT_MESSAGES.routingNumber, code: 'VALIDATION' }));
    expect(await flushPendingPayoutSetup()).toEqual({ result: 'failed', message: PAYOUT_MESSAGES.routingNumber, kept: false });
    expect(idb.map.has(PENDING_PAYOUT_KEY)).toBe(false);
  });

  it('drops an entry older than a day without sending it', async () => {
    idb.map.set(PENDING_PAYOUT_KEY, entry({ savedAt: Date.now() - PENDING_PAYOUT_MAX_AGE_MS - 1 }));
    expect(await flushPendingPayoutSetup()).toEqual({ result: 'none' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(idb.map.has(PENDING_PAYOUT_KEY)).toBe(false);
  });

  it('runs once for callers at the same time (the page and the app shell)', async () => {
    idb.map.set(PENDING_PAYOUT_KEY, entry({ method: { method: 'paypal', paypal_email: 'ada@example.com' } }));
    fetchMock.mockResolvedValue(json(200, { success: true, setup: SETUP }));
    const [a, b] = await Promise.all([flushPendingPayoutSetup(), flushPendingPayoutSetup()]);
    expect(a).toEqual(b);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('parsePending', () => {
  it('takes only a well-formed entry of this version', () => {
    const good = entry();
    expect(parsePending(good)).toEqual(good);
    expect(parsePending({ ...good, version: 99 })).toBeNull();
    expect(parsePending({ ...good, method: { method: 'ach', routing_number: '021000021' } })).toBeNull();
    expect(parsePending({ ...good, method: { method: 'wire' } })).toBeNull();
    expect(parsePending({ ...good, taxEmail: 5 })).toBeNull();
    expect(parsePending({ ...good, savedAt: Date.now() + 60_000 })).toBeNull();
    expect(parsePending('junk')).toBeNull();
  });
});
