/**
 * Starting Pro: signed out, sign in first and ask the server nothing; signed in, go to the url
 * the server answers; a failure gives the server's message (or ours), and a reply whose url is
 * not a web address is never followed.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/ApiError.ts';
import { NETWORK_MESSAGE } from '../../lib/api.ts';
import { checkoutTarget, startSubscription, SUBSCRIBE_FAILED, type SubscribeSteps } from './useSubscribe.ts';

vi.mock('idb-keyval', () => ({ createStore: vi.fn(), get: vi.fn(), set: vi.fn(), del: vi.fn() }));

const ORIGIN = 'https://framemerch.example';

function steps(overrides: Partial<SubscribeSteps> = {}) {
  return {
    signedIn: true,
    signIn: vi.fn(),
    checkout: vi.fn(() => Promise.resolve({ url: 'https://checkout.stripe.com/c/pay/cs_test_1' })),
    go: vi.fn(),
    origin: ORIGIN,
    ...overrides,
  };
}

describe('startSubscription', () => {
  it('signed out: signs in first, without asking for a checkout', async () => {
    const s = steps({ signedIn: false });
    expect(await startSubscription(s)).toEqual({ kind: 'signing-in' });
    expect(s.signIn).toHaveBeenCalledOnce();
    expect(s.checkout).not.toHaveBeenCalled();
    expect(s.go).not.toHaveBeenCalled();
  });
  it("signed in: goes to the reply's url", async () => {
    const s = steps();
    expect(await startSubscription(s)).toEqual({ kind: 'leaving' });
    expect(s.go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1');
  });
  it("a path on this site (the embedded payment page) is followed too", async () => {
    const s = steps({ checkout: () => Promise.resolve({ url: '/pay/sub_1' }) });
    await startSubscription(s);
    expect(s.go).toHaveBeenCalledWith(`${ORIGIN}/pay/sub_1`);
  });
  it("shows the server's message", async () => {
    const s = steps({ checkout: () => Promise.reject(new ApiError(409, 'CONFLICT', 'You are already on Pro.', 'You are already on Pro.')) });
    expect(await startSubscription(s)).toEqual({ kind: 'failed', message: 'You are already on Pro.' });
    expect(s.go).not.toHaveBeenCalled();
  });
  it('shows the network message when the server was not reached', async () => {
    const s = steps({ checkout: () => Promise.reject(new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE)) });
    expect(await startSubscription(s)).toEqual({ kind: 'failed', message: NETWORK_MESSAGE });
  });
  it('a reply with no message of its own (e.g. a 404 while the route is missing) gets ours', async () => {
    const s = steps({ checkout: () => Promise.reject(new ApiError(404, 'HTTP_ERROR', 'Request failed with status 404')) });
    expect(await startSubscription(s)).toEqual({ kind: 'failed', message: SUBSCRIBE_FAILED });
  });
  it('never follows a javascript: url', async () => {
    const s = steps({ checkout: () => Promise.resolve({ url: 'javascript:alert(1)' }) });
    expect(await startSubscription(s)).toEqual({ kind: 'failed', message: SUBSCRIBE_FAILED });
    expect(s.go).not.toHaveBeenCalled();
  });
  it('an aborted request is not an error to show', async () => {
    const s = steps({ checkout: () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')) });
    expect(await startSubscription(s)).toEqual({ kind: 'aborted' });
  });
});

describe('checkoutTarget', () => {
  it('keeps http(s) addresses and refuses the rest', () => {
    expect(checkoutTarget('https://x.example/a', ORIGIN)).toBe('https://x.example/a');
    expect(checkoutTarget('data:text/html,hi', ORIGIN)).toBeNull();
    expect(checkoutTarget('http://[', ORIGIN)).toBeNull();
  });
});
