/**
 * The payout providers' settings: each method is real only with its whole configuration, a
 * half-given one stops the start with the reason, and without any the embedded provider pays.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config/config.ts';
import { openPayoutProviders } from './open.ts';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

const NACHA = {
  NACHA_IMMEDIATE_DESTINATION: '021000021',
  NACHA_IMMEDIATE_ORIGIN: '1234567890',
  NACHA_COMPANY_NAME: 'FrameMerch',
  NACHA_COMPANY_ID: '1234567890',
  NACHA_ODFI: '021000021',
};

describe('payout settings', () => {
  it('default to the embedded provider for every method, settling a processing day per minute', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ paypal: null, stripeConnect: null, nacha: null, embeddedPayoutSettleMs: 60_000 });
    expect(loadConfig({ EMBEDDED_PAYOUT_SETTLE_MS: '250' }).embeddedPayoutSettleMs).toBe(250);
    expect(problems({ EMBEDDED_PAYOUT_SETTLE_MS: '0' })).toEqual([expect.stringMatching(/EMBEDDED_PAYOUT_SETTLE_MS/)]);
  });

  it('take PayPal with its client id, secret and webhook id, against PayPal live unless PAYPAL_API_BASE says otherwise', () => {
    const c = loadConfig({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_WEBHOOK_ID: 'WH1' });
    expect(c.paypal).toEqual({ clientId: 'id', clientSecret: 'secret', webhookId: 'WH1', apiBase: 'https://api-m.paypal.com' });
    expect(loadConfig({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_WEBHOOK_ID: 'w', PAYPAL_API_BASE: 'https://api-m.sandbox.paypal.com/' }).paypal?.apiBase).toBe(
      'https://api-m.sandbox.paypal.com',
    );
    expect(problems({ PAYPAL_CLIENT_ID: 'id' })).toEqual(['PAYPAL_CLIENT_ID needs PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID']);
    expect(problems({ PAYPAL_CLIENT_SECRET: 'secret' })).toHaveLength(1);
    // The client secret is never sent in the clear, except to a stand-in on this machine.
    expect(problems({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_WEBHOOK_ID: 'w', PAYPAL_API_BASE: 'http://paypal.example' })).toHaveLength(1);
    expect(problems({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_WEBHOOK_ID: 'w', PAYPAL_API_BASE: 'http://127.0.0.1:4010' })).toEqual([]);
  });

  it('take Stripe Connect with STRIPE_SECRET_KEY and one or more connect webhook secrets', () => {
    const c = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_pay', STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_a, whsec_b' });
    expect(c.stripeConnect).toEqual({ secretKey: 'sk_test_abc', webhookSecrets: ['whsec_a', 'whsec_b'] });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_pay' }).stripeConnect).toBeNull();
    expect(problems({ STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_a' })).toEqual(['STRIPE_SECRET_KEY is required with STRIPE_CONNECT_WEBHOOK_SECRET']);
    expect(problems({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_pay', STRIPE_CONNECT_WEBHOOK_SECRET: 'nope' })).toHaveLength(1);
  });

  it("take ACH by NACHA file with all five of the platform bank's details, checked", () => {
    expect(loadConfig(NACHA).nacha).toEqual({
      immediateDestination: '021000021',
      immediateOrigin: '1234567890',
      companyName: 'FRAMEMERCH',
      companyId: '1234567890',
      odfi: '02100002',
    });
    expect(problems({ NACHA_COMPANY_NAME: 'FrameMerch' })).toEqual([expect.stringMatching(/missing NACHA_IMMEDIATE_DESTINATION, NACHA_IMMEDIATE_ORIGIN, NACHA_COMPANY_ID, NACHA_ODFI/)]);
    expect(problems({ ...NACHA, NACHA_IMMEDIATE_DESTINATION: '021000022' })).toEqual([expect.stringMatching(/NACHA_IMMEDIATE_DESTINATION/)]);
    expect(problems({ ...NACHA, NACHA_ODFI: '021000022' })).toEqual([expect.stringMatching(/NACHA_ODFI/)]);
    expect(loadConfig({ ...NACHA, NACHA_ODFI: '02100002' }).nacha?.odfi).toBe('02100002');
    expect(problems({ ...NACHA, NACHA_COMPANY_NAME: 'A name far too long for the field' })).toEqual([expect.stringMatching(/NACHA_COMPANY_NAME/)]);
  });

  it('open the real adapter for each configured method and the embedded provider for the rest', () => {
    const deps = { db: {} as never, sealer: { seal: () => '' }, embedded: { paypalSecret: 'p', stripeSecret: 'whsec_e' } };
    const none = openPayoutProviders(loadConfig({}), deps);
    expect([none('paypal').kind, none('stripe_connect').kind, none('ach').kind]).toEqual(['embedded', 'embedded', 'embedded']);
    expect(none.onboarding).toBe(none.embedded);
    const all = openPayoutProviders(
      loadConfig({
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 's',
        PAYPAL_WEBHOOK_ID: 'w',
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_pay',
        STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_c',
        ...NACHA,
      }),
      deps,
    );
    expect([all('paypal').kind, all('stripe_connect').kind, all('ach').kind]).toEqual(['paypal', 'stripe', 'nacha']);
    expect(all('ach').method).toBe('ach');
    expect(all.onboarding).toBe(all.stripeConnect);
  });
});
