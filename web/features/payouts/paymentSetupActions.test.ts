/**
 * Continue and Save in both modes, with the API (fetch) and IndexedDB (idb-keyval) mocked:
 * a creator's values go to the server; the new-user flow keeps them in the browser and sends nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAYOUT_MESSAGES, type PayoutSetup } from '../../../shared/schemas/payouts.ts';
import { submitMethod, submitTaxEmail } from './paymentSetupActions.ts';
import { PAYMENT_SETUP_MESSAGES } from './paymentSetupFlow.ts';
import { EMPTY_DRAFT, type MethodDraft } from './payoutForm.ts';
import { PENDING_PAYOUT_KEY, PENDING_PAYOUT_VERSION } from './pendingPayoutSetup.ts';

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

const SETUP: PayoutSetup = {
  preferred_payment_method: null,
  payout_enabled: true,
  paypal_email: null,
  ach: null,
  stripe_connect: null,
  tax_email: null,
  tax_info_verified: false,
  payout_threshold_cents: 5000,
};
const paypal: MethodDraft = { ...EMPTY_DRAFT, method: 'paypal', paypalEmail: ' ada@example.com ' };
const ach: MethodDraft = { ...EMPTY_DRAFT, method: 'ach', routingNumber: '021-000-021', accountNumber: '0001 2345 6789', holderName: 'Ada Lovelace', accountType: 'checking' };

beforeEach(() => {
  idb.map.clear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('step 1, signed-in creator', () => {
  it('saves a valid PayPal email through PUT /api/payouts/method with the right body', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true, setup: { ...SETUP, preferred_payment_method: 'paypal', paypal_email: 'ada@example.com' } }));
    const outcome = await submitMethod('save', paypal);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/payouts/method');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ method: 'paypal', paypal_email: 'ada@example.com' });
    expect(outcome).toEqual({ result: 'saved', summary: { method: 'paypal', text: 'PayPal: ada@example.com', onboardingUrl: null } });
    expect(idb.map.size).toBe(0);
  });

  it('sends nothing when the check fails, and says why with the spec message', async () => {
    expect(await submitMethod('save', { ...paypal, paypalEmail: 'ada@' })).toEqual({
      result: 'invalid',
      problem: { field: 'paypalEmail', message: PAYOUT_MESSAGES.paypalEmail },
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's refusal as its message", async () => {
    fetchMock.mockResolvedValue(json(400, { success: false, error: PAYOUT_MESSAGES.routingNumber, code: 'VALIDATION' }));
    expect(await submitMethod('save', ach)).toEqual({ result: 'failed', message: PAYOUT_MESSAGES.routingNumber });
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await submitMethod('save', ach)).toEqual({ result: 'failed', message: 'Network error. Please check your internet connection and try again.' });
  });

  it('shows a saved bank account by its last 4 digits, as the server answers them', async () => {
    fetchMock.mockResolvedValue(
      json(200, {
        success: true,
        setup: { ...SETUP, ach: { routing_last4: '0021', account_last4: '6789', account_type: 'checking', holder_name: 'Ada Lovelace', verified: false } },
      }),
    );
    const outcome = await submitMethod('save', ach);
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body))).toEqual({
      method: 'ach',
      routing_number: '021000021',
      account_number: '000123456789',
      holder_name: 'Ada Lovelace',
      account_type: 'checking',
    });
    expect(outcome).toMatchObject({ result: 'saved', summary: { text: 'Bank account ending in 6789 (Checking)' } });
    expect(JSON.stringify(outcome)).not.toContain('000123456789');
  });

  it("hands on Stripe Connect's onboarding address", async () => {
    fetchMock.mockResolvedValue(
      json(200, { success: true, setup: { ...SETUP, stripe_connect: { email: 'ada@example.com', status: 'pending' } }, onboarding_url: '/pay/connect/onboard/acct_1' }),
    );
    const outcome = await submitMethod('save', { ...EMPTY_DRAFT, method: 'stripe_connect', stripeEmail: 'ada@example.com' });
    expect(outcome).toEqual({
      result: 'saved',
      summary: { method: 'stripe_connect', text: 'Stripe Connect: ada@example.com', onboardingUrl: '/pay/connect/onboard/acct_1' },
    });
  });
});

describe('step 1, new-user flow signed out', () => {
  it('keeps the values in IndexedDB and does not call the save API', async () => {
    const outcome = await submitMethod('pending', ach);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(idb.map.get(PENDING_PAYOUT_KEY)).toEqual({
      version: PENDING_PAYOUT_VERSION,
      savedAt: expect.any(Number),
      method: { method: 'ach', routing_number: '021000021', account_number: '000123456789', holder_name: 'Ada Lovelace', account_type: 'checking' },
    });
    expect(outcome).toEqual({ result: 'saved', summary: { method: 'ach', text: 'Bank account ending in 6789 (Checking)', onboardingUrl: null } });
  });

  it('keeps nothing when the check fails', async () => {
    expect(await submitMethod('pending', { ...ach, holderName: ' ' })).toMatchObject({ result: 'invalid', problem: { message: PAYOUT_MESSAGES.holderName } });
    expect(idb.map.size).toBe(0);
  });

  it('says so when the browser will not keep them', async () => {
    const { set } = await import('idb-keyval');
    vi.mocked(set).mockRejectedValueOnce(new Error('QuotaExceededError'));
    expect(await submitMethod('pending', paypal)).toEqual({ result: 'failed', message: PAYMENT_SETUP_MESSAGES.notKept });
  });
});

describe('step 2', () => {
  it('saves the payment email through PUT /api/payouts/tax-info', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true, setup: { ...SETUP, tax_email: 'tax@example.com' } }));
    expect(await submitTaxEmail('save', ' tax@example.com ')).toEqual({ result: 'saved' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([url, init.method, JSON.parse(String(init.body))]).toEqual(['/api/payouts/tax-info', 'PUT', { email: 'tax@example.com' }]);
  });

  it('refuses a bad email before sending, and shows a server failure', async () => {
    expect(await submitTaxEmail('save', 'tax@')).toEqual({ result: 'invalid', message: PAYOUT_MESSAGES.taxEmail });
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockResolvedValue(json(401, { success: false, error: PAYOUT_MESSAGES.notAuthenticated, code: 'UNAUTHENTICATED' }));
    expect(await submitTaxEmail('save', 'tax@example.com')).toEqual({ result: 'failed', message: PAYOUT_MESSAGES.notAuthenticated });
  });

  it('adds the email to the kept entry in the new-user flow, without calling the API', async () => {
    await submitMethod('pending', paypal);
    expect(await submitTaxEmail('pending', 'tax@example.com')).toEqual({ result: 'saved' });
    expect(idb.map.get(PENDING_PAYOUT_KEY)).toMatchObject({ method: { method: 'paypal' }, taxEmail: 'tax@example.com' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('cannot add an email when step 1 left nothing in the browser', async () => {
    expect(await submitTaxEmail('pending', 'tax@example.com')).toEqual({ result: 'failed', message: PAYMENT_SETUP_MESSAGES.notKept });
  });
});
