/**
 * /subscription-success's flow: verify (asking again while the checkout is open, 3 attempts in
 * all), then activate with the session id only; each failure ends in its spec message.
 */
import { describe, expect, it, vi } from 'vitest';
import { SUBSCRIPTION_MESSAGES, type SubscriptionView, type VerifySubscriptionReply } from '../../../shared/schemas/subscriptions.ts';
import { ApiError } from '../../lib/ApiError.ts';
import { abortableWait, MAX_VERIFY_ATTEMPTS, sessionIdFrom, trialEndLabel, verifyAndActivate, VERIFY_RETRY_MS, type VerifySteps } from './subscriptionSuccess.ts';
import { TRIALING_PRO } from './subscriptionFixtures.ts';

vi.mock('idb-keyval', () => ({ createStore: vi.fn(), get: vi.fn(), set: vi.fn(), del: vi.fn() }));

const SUB = TRIALING_PRO;

const open: VerifySubscriptionReply = { success: false, status: 'open', subscription_id: null, customer_id: null, message: 'Payment not completed yet' };
const done: VerifySubscriptionReply = { success: true, status: 'complete', subscription_id: 'sub_1', customer_id: 'cus_1', message: 'Payment verified' };
const expired: VerifySubscriptionReply = { success: false, status: 'expired', subscription_id: null, customer_id: null, message: 'expired' };

function steps(replies: Array<VerifySubscriptionReply | Error>, activate: () => Promise<{ subscription: SubscriptionView }> = () => Promise.resolve({ subscription: SUB })) {
  const queue = [...replies];
  const s = {
    verify: vi.fn(async () => {
      const next = queue.shift();
      if (!next) throw new Error('no more replies');
      if (next instanceof Error) throw next;
      return next;
    }),
    activate: vi.fn(activate),
    wait: vi.fn(() => Promise.resolve()),
    onAttempt: vi.fn(),
  } satisfies VerifySteps;
  return s;
}

describe('verifyAndActivate', () => {
  it('complete at once: activates with the session id, success', async () => {
    const s = steps([done]);
    expect(await verifyAndActivate(s, 'cs_test_1')).toEqual({ kind: 'success', subscription: SUB });
    expect(s.verify).toHaveBeenCalledWith('cs_test_1');
    expect(s.activate).toHaveBeenCalledWith('cs_test_1');
    expect(s.wait).not.toHaveBeenCalled();
    expect(s.onAttempt.mock.calls).toEqual([[1]]);
  });

  it('open, then complete: asks again after a pause', async () => {
    const s = steps([open, open, done]);
    expect(await verifyAndActivate(s, 'cs_test_1')).toMatchObject({ kind: 'success' });
    expect(s.verify).toHaveBeenCalledTimes(3);
    expect(s.wait.mock.calls).toEqual([[VERIFY_RETRY_MS], [VERIFY_RETRY_MS]]);
    expect(s.onAttempt.mock.calls).toEqual([[1], [2], [3]]);
  });

  it(`still open after ${MAX_VERIFY_ATTEMPTS} attempts: 'Unable to verify subscription. Please contact support.', nothing activated`, async () => {
    const s = steps([open, open, open, done]);
    expect(await verifyAndActivate(s, 'cs_test_1')).toEqual({ kind: 'error', message: 'Unable to verify subscription. Please contact support.' });
    expect(s.verify).toHaveBeenCalledTimes(MAX_VERIFY_ATTEMPTS);
    expect(s.activate).not.toHaveBeenCalled();
  });

  it("expired, or not this visitor's (404): 'Payment verification failed' at once", async () => {
    for (const reply of [expired, new ApiError(404, 'NOT_FOUND', 'Checkout session not found', 'Checkout session not found'), new ApiError(400, 'VALIDATION_FAILED', 'bad')]) {
      const s = steps([reply, done]);
      expect(await verifyAndActivate(s, 'cs_test_1')).toEqual({ kind: 'error', message: SUBSCRIPTION_MESSAGES.verificationFailed });
      expect(s.verify).toHaveBeenCalledTimes(1);
      expect(s.activate).not.toHaveBeenCalled();
    }
  });

  it("the server unreachable or failing every time: 'Failed to verify payment'; once only: retried", async () => {
    const down = () => new ApiError(0, 'NETWORK', 'Network error');
    const failing = steps([down(), new ApiError(502, 'SERVICE_UNAVAILABLE', 'x'), down()]);
    expect(await verifyAndActivate(failing, 'cs_test_1')).toEqual({ kind: 'error', message: 'Failed to verify payment' });
    expect(failing.verify).toHaveBeenCalledTimes(3);
    expect(await verifyAndActivate(steps([down(), done]), 'cs_test_1')).toMatchObject({ kind: 'success' });
  });

  it("activation fails: 'Failed to activate subscription'", async () => {
    const s = steps([done], () => Promise.reject(new ApiError(502, 'SERVICE_UNAVAILABLE', 'x')));
    expect(await verifyAndActivate(s, 'cs_test_1')).toEqual({ kind: 'error', message: 'Failed to activate subscription' });
  });

  it('no session id: the error state, and nothing asked', async () => {
    const s = steps([done]);
    expect(await verifyAndActivate(s, null)).toEqual({ kind: 'error', message: SUBSCRIPTION_MESSAGES.verificationFailed });
    expect(s.verify).not.toHaveBeenCalled();
  });

  it('the page left while waiting: aborted, nothing more asked', async () => {
    const s = steps([open, done]);
    s.wait.mockImplementation(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    expect(await verifyAndActivate(s, 'cs_test_1')).toEqual({ kind: 'aborted' });
    expect(s.verify).toHaveBeenCalledTimes(1);
  });
});

describe('sessionIdFrom', () => {
  it('takes a provider session id from the query; anything else is none', () => {
    expect(sessionIdFrom('?session_id=cs_test_a1B2')).toBe('cs_test_a1B2');
    expect(sessionIdFrom('?session_id=%20cs_1%20')).toBe('cs_1');
    expect(sessionIdFrom('')).toBeNull();
    expect(sessionIdFrom('?session_id=')).toBeNull();
    expect(sessionIdFrom('?session_id={CHECKOUT_SESSION_ID}')).toBeNull();
    expect(sessionIdFrom('?session_id=../../api')).toBeNull();
  });
});

describe('helpers', () => {
  it("the trial's end as a date; none when missing or bad", () => {
    expect(trialEndLabel('2030-03-08T12:00:00.000Z', 'en-US')).toBe('Friday, March 8, 2030');
    expect(trialEndLabel(null)).toBeNull();
    expect(trialEndLabel('not a date')).toBeNull();
  });

  it('abortableWait rejects when the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = abortableWait(controller.signal)(60_000);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(abortableWait(controller.signal)(1)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
