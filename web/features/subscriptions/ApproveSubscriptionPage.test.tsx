/**
 * /approve-subscription: the invalid-link state at once when the address or the token is missing
 * (nothing asked); otherwise 'Verifying...' for at least 2 s while the server is asked (once, even
 * when React runs the effect twice), then the approval with the address and the way home, or the
 * invalid-link state with the way to ask for a new link. Rendered to markup (no DOM); the timing
 * with fake timers.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPROVAL_VERIFY_MS, SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { ApiError } from '../../lib/ApiError.ts';
import { ApproveSubscriptionPage, ApproveSubscriptionView } from './ApproveSubscriptionPage.tsx';
import { approvalLinkFrom, approveOnce, checkApprovalLink, verifyApproval, type ApprovalOutcome, type ApprovalState } from './approveSubscription.ts';
import { abortableWait } from './subscriptionSuccess.ts';

const api = vi.hoisted(() => ({ request: vi.fn() }));
vi.mock('../../lib/api.ts', () => ({ request: api.request }));

const TOKEN = '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5.1900000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const LINK = { email: 'Fan@Example.com', token: TOKEN };

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ').trim();
const Modal = ({ onClose }: { onClose: () => void }) => (
  <div role="dialog" onClick={onClose}>
    modal
  </div>
);

const view = (state: ApprovalState) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <ApproveSubscriptionView state={state} onNewLink={() => undefined} onRetry={() => undefined} />
    </MemoryRouter>,
  );

const page = (url: string) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={[url]}>
      <ApproveSubscriptionPage SubscribeModal={Modal} />
    </MemoryRouter>,
  );

beforeEach(() => api.request.mockReset());
afterEach(() => vi.useRealTimers());

describe('approvalLinkFrom', () => {
  it('reads the address and the token, trimmed', () => {
    expect(approvalLinkFrom(`?email=${encodeURIComponent(' Fan@Example.com ')}&token=${TOKEN}`)).toEqual(LINK);
  });
  it.each(['', '?email=fan%40example.com', `?token=${TOKEN}`, `?email=&token=${TOKEN}`, '?email=fan%40example.com&token=%20'])('%s: no link', (search) => {
    expect(approvalLinkFrom(search)).toBeNull();
  });
});

describe('ApproveSubscriptionPage', () => {
  it.each(['/approve-subscription', '/approve-subscription?email=fan%40example.com', `/approve-subscription?token=${TOKEN}`])(
    '%s: the invalid-link state at once, and nothing asked',
    (url) => {
      const html = page(url);
      expect(html).toContain('<h1 id="approve-subscription-title" class="subscription-result__title">Subscription approval</h1>');
      expect(html).toContain('role="alert"');
      expect(text(html)).toContain(SUBSCRIPTION_MESSAGES.approvalInvalid);
      expect(text(html)).not.toContain('Verifying...');
      expect(api.request).not.toHaveBeenCalled();
    },
  );

  it("a whole link: 'Verifying...' first", () => {
    const html = page(`/approve-subscription?email=${encodeURIComponent(LINK.email)}&token=${TOKEN}`);
    expect(html).toContain('role="status"');
    expect(text(html)).toBe('Subscription approval Verifying...');
  });
});

describe('ApproveSubscriptionView', () => {
  it("verifying: 'Verifying...', announced politely", () => {
    const html = view({ kind: 'verifying' });
    expect(html).toContain('role="status"');
    expect(text(html)).toBe('Verifying...');
  });

  it('approved: a heading, the address, and the way home', () => {
    const html = view({ kind: 'approved', email: 'Fan@Example.com' });
    expect(html).toMatch(/<div class="subscription-result__card" role="status"[^>]*><h2[^>]*>Subscription approved<\/h2>/);
    expect(html).toContain('<p>FrameMerch updates will come to <strong class="approve-subscription__email">Fan@Example.com</strong>.</p>');
    expect(html).toMatch(/<a class="button button--primary" href="\/"[^>]*>Go to the home page<\/a>/);
  });

  it('invalid: an alert, and a button to ask for a new link', () => {
    const html = view({ kind: 'invalid' });
    expect(html).toContain('role="alert"');
    expect(text(html)).toContain(`${SUBSCRIPTION_MESSAGES.approvalInvalid} ${SUBSCRIPTION_MESSAGES.approvalNewLinkHint}`);
    expect(html).toContain(`<button type="button" class="button button--primary">${SUBSCRIPTION_MESSAGES.approvalNewLink}</button>`);
    expect(html).toContain('href="/"');
  });

  it('failed: an alert with the message, and Try again', () => {
    const html = view({ kind: 'failed', message: SUBSCRIPTION_MESSAGES.approvalCheckFailed });
    expect(html).toContain('role="alert"');
    expect(text(html)).toBe(`${SUBSCRIPTION_MESSAGES.approvalCheckFailed} Try again`);
  });
});

describe("the server's answer", () => {
  const answer = (result: Promise<unknown>) => checkApprovalLink(() => result, LINK);

  it('200: approved, with the address of the link', async () => {
    expect(await answer(Promise.resolve({ success: true, message: 'ok' }))).toEqual({ kind: 'approved', email: 'Fan@Example.com' });
  });
  it('400 (whatever the reason): the invalid-link state', async () => {
    const refused = new ApiError(400, 'VALIDATION_FAILED', SUBSCRIPTION_MESSAGES.approvalInvalid, SUBSCRIPTION_MESSAGES.approvalInvalid);
    expect(await answer(Promise.reject(refused))).toEqual({ kind: 'invalid' });
  });
  it("429: the server's message", async () => {
    const limited = new ApiError(429, 'RATE_LIMITED', SUBSCRIPTION_MESSAGES.approvalTooManyAttempts, SUBSCRIPTION_MESSAGES.approvalTooManyAttempts);
    expect(await answer(Promise.reject(limited))).toEqual({ kind: 'failed', message: SUBSCRIPTION_MESSAGES.approvalTooManyAttempts });
  });
  it('not reached, or failing: the link may still be good, so not the invalid-link state', async () => {
    for (const error of [new ApiError(0, 'NETWORK', 'Network error'), new ApiError(500, 'INTERNAL', 'x', 'x'), new TypeError('fetch failed')]) {
      expect(await answer(Promise.reject(error))).toEqual({ kind: 'failed', message: SUBSCRIPTION_MESSAGES.approvalCheckFailed });
    }
  });
});

describe('approveOnce', () => {
  it('asks the server once per link, however often the page asks (StrictMode runs effects twice)', async () => {
    const approve = vi.fn(() => Promise.resolve({ success: true }));
    const link = { email: 'once@example.com', token: `${TOKEN}1` };
    const [a, b] = await Promise.all([approveOnce(approve, link), approveOnce(approve, link)]);
    expect(a).toEqual({ kind: 'approved', email: 'once@example.com' });
    expect(b).toEqual(a);
    expect(await approveOnce(approve, link)).toEqual(a);
    expect(approve).toHaveBeenCalledTimes(1);
  });

  it('forgets a failure to reach the server, so trying again asks again; an invalid link is not asked twice', async () => {
    const failing = vi.fn(() => Promise.reject(new ApiError(0, 'NETWORK', 'Network error')));
    const link = { email: 'retry@example.com', token: `${TOKEN}2` };
    expect((await approveOnce(failing, link)).kind).toBe('failed');
    const refusing = vi.fn(() => Promise.reject(new ApiError(400, 'VALIDATION_FAILED', 'x', 'x')));
    expect(await approveOnce(refusing, link)).toEqual({ kind: 'invalid' });
    expect(await approveOnce(refusing, link)).toEqual({ kind: 'invalid' });
    expect(failing).toHaveBeenCalledTimes(1);
    expect(refusing).toHaveBeenCalledTimes(1);
  });
});

describe("'Verifying...' lasts at least 2 s", () => {
  beforeEach(() => vi.useFakeTimers());

  /** Settles the flow's promise, recording when. */
  function track(result: Promise<ApprovalOutcome | null>) {
    const seen: { value?: ApprovalOutcome | null } = {};
    void result.then((value) => (seen.value = value));
    return seen;
  }

  it('an answer at once is shown after 2 s, not before', async () => {
    const controller = new AbortController();
    const seen = track(verifyApproval(Promise.resolve({ kind: 'approved', email: 'a@example.com' }), abortableWait(controller.signal)));
    await vi.advanceTimersByTimeAsync(APPROVAL_VERIFY_MS - 1);
    expect(seen).not.toHaveProperty('value');
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.value).toEqual({ kind: 'approved', email: 'a@example.com' });
  });

  it('a slower answer is shown when it comes', async () => {
    const controller = new AbortController();
    let answer!: (o: ApprovalOutcome) => void;
    const seen = track(verifyApproval(new Promise<ApprovalOutcome>((resolve) => (answer = resolve)), abortableWait(controller.signal)));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(seen).not.toHaveProperty('value');
    answer({ kind: 'invalid' });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.value).toEqual({ kind: 'invalid' });
  });

  it('the page left meanwhile: nothing to show', async () => {
    const controller = new AbortController();
    const seen = track(verifyApproval(Promise.resolve({ kind: 'invalid' }), abortableWait(controller.signal)));
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    await vi.advanceTimersByTimeAsync(APPROVAL_VERIFY_MS);
    expect(seen.value).toBeNull();
  });
});
