/** The methods step 1 offers: the server's list, else the spec's defaults (section 9); and how their terms read. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentMethodOption } from '../../../shared/schemas/payouts.ts';
import { DEFAULT_PAYMENT_METHODS, formatDollars, formatFee, formatProcessing, loadPaymentMethods, methodsForCountry } from './payoutMethods.ts';

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const terms = (methods: readonly PaymentMethodOption[]) =>
  methods.map((m) => [m.method_name, formatFee(m), formatProcessing(m.processing_time_days), formatDollars(m.min_payout_cents)]);

describe('loadPaymentMethods', () => {
  it('asks for the country and falls back to the spec defaults when the server answers none', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true, methods: [] }));
    vi.stubGlobal('fetch', fetchMock);
    const methods = await loadPaymentMethods('US', new AbortController().signal);
    expect(fetchMock).toHaveBeenCalledWith('/api/payment-methods?country=US', expect.objectContaining({ method: 'GET' }));
    expect(terms(methods)).toEqual([
      ['paypal', '2.9% + $0.30', '1 day', '$50'],
      ['ach', '0.5% + $0.25', '3 days', '$50'],
      ['stripe_connect', '2.9% + $0.30', '2 days', '$25'],
    ]);
  });

  it('falls back to the defaults when the server fails or is not reached', async () => {
    vi.stubGlobal('fetch', fetchMock.mockResolvedValueOnce(json(500, { success: false, error: 'boom', code: 'INTERNAL' })));
    expect(await loadPaymentMethods('CA', new AbortController().signal)).toEqual(DEFAULT_PAYMENT_METHODS);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await loadPaymentMethods('CA', new AbortController().signal)).toEqual(DEFAULT_PAYMENT_METHODS);
  });

  it("uses the server's available methods when it has some", async () => {
    const only: PaymentMethodOption = { ...DEFAULT_PAYMENT_METHODS[0]!, display_name: 'PayPal (server)', fees_fixed_cents: 49 };
    const off: PaymentMethodOption = { ...DEFAULT_PAYMENT_METHODS[1]!, is_available: false };
    vi.stubGlobal('fetch', fetchMock.mockResolvedValue(json(200, { success: true, methods: [only, off] })));
    expect(await loadPaymentMethods('GB', new AbortController().signal)).toEqual([only]);
  });

  it('lets our own abort through instead of falling back', async () => {
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal('fetch', fetchMock.mockRejectedValue(new DOMException('aborted', 'AbortError')));
    await expect(loadPaymentMethods('US', controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('methodsForCountry', () => {
  it('leaves the card processor out of the defaults where it does not operate', () => {
    expect(methodsForCountry([], 'FR').map((m) => m.method_name)).toEqual(['paypal', 'ach', 'stripe_connect']);
    expect(methodsForCountry(null, 'MX').map((m) => m.method_name)).toEqual(['paypal', 'ach']);
  });
});

describe('terms', () => {
  it('reads fees, days and amounts as people write them', () => {
    expect(formatFee({ fees_percentage: 0.5, fees_fixed_cents: 0 })).toBe('0.5%');
    expect(formatFee({ fees_percentage: 0, fees_fixed_cents: 25 })).toBe('$0.25');
    expect(formatFee({ fees_percentage: 0, fees_fixed_cents: 0 })).toBe('No fees');
    expect(formatFee({ fees_percentage: 0.1 + 0.2, fees_fixed_cents: 0 })).toBe('0.3%');
    expect(formatProcessing(0)).toBe('Same day');
    expect(formatDollars(2550)).toBe('$25.50');
  });
});
