/**
 * A Stripe-format event is taken only when its signed timestamp is within 300 s of now, in the
 * past or in the future: a future stamp would otherwise keep a captured event replayable.
 */
import { describe, expect, it } from 'vitest';
import { signWebhookBody, verifyWebhookBody, WebhookSignatureError } from './signature.ts';

const secret = 'whsec_test_secret_for_the_tolerance_window';
const body = JSON.stringify({ id: 'evt_test_window', object: 'event', type: 'checkout.session.completed', data: { object: {} } });
const NOW = 1_800_000_000_000;
const nowS = NOW / 1000;

const verifyAt = (offsetSeconds: number, header = signWebhookBody(body, secret, nowS + offsetSeconds)) =>
  () => verifyWebhookBody(Buffer.from(body), header, secret, NOW);

describe('verifyWebhookBody: the timestamp window', () => {
  it.each([0, 299, -299, 300, -300])('accepts an event stamped %i s from now', (offset) => {
    expect(verifyAt(offset)().id).toBe('evt_test_window');
  });

  it.each([301, -301, 86_400, -86_400])('refuses an event stamped %i s from now', (offset) => {
    expect(verifyAt(offset)).toThrow(WebhookSignatureError);
    expect(verifyAt(offset)).toThrow(/tolerance/);
  });

  it('reads the timestamp as the signature does: with two t= the last one counts', () => {
    // The library signs and checks the last t=, so an early t= cannot pass a future one off as now.
    const future = signWebhookBody(body, secret, nowS + 86_400);
    expect(verifyAt(0, `t=${nowS},${future}`)).toThrow(WebhookSignatureError);
  });

  it('refuses a timestamp that is not a whole number of seconds', () => {
    const header = signWebhookBody(body, secret, nowS).replace(/^t=\d+/, `t=${nowS}abc`);
    expect(verifyAt(0, header)).toThrow(WebhookSignatureError);
  });
});
