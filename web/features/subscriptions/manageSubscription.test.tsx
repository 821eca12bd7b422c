/**
 * A subscriber on the tiers page: 'Current plan' on Pro with 'Manage subscription', which opens
 * the payment provider's page the server answers (a web address only).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/ApiError.ts';
import { TierCards } from './SubscriptionTiersPage.tsx';
import { MANAGE_FAILED, openManagePage } from './useManageSubscription.ts';

vi.mock('idb-keyval', () => ({ createStore: vi.fn(), get: vi.fn(), set: vi.fn(), del: vi.fn() }));

const ORIGIN = 'https://framemerch.example';
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const actions = (html: string) => [...html.matchAll(/<div class="subscription-tiers__action">(.*?)<\/div><\/li>/g)].map((m) => text(m[1]!));

const cards = (props: { canManage?: boolean; managing?: boolean; tier?: 'free' | 'pro' }) =>
  renderToStaticMarkup(
    <TierCards
      viewer="signed-in"
      currentTier={props.tier ?? 'pro'}
      busy={false}
      onSubscribe={() => undefined}
      onStartFree={() => undefined}
      canManage={props.canManage ?? false}
      managing={props.managing ?? false}
      onManage={() => undefined}
    />,
  );

describe('the tiers page for a subscriber', () => {
  it("Pro: 'Current plan' and 'Manage subscription'", () => {
    expect(actions(cards({ canManage: true }))).toEqual(['', 'Current plan Manage subscription']);
  });
  it('while the page opens, the button waits', () => {
    expect(cards({ canManage: true, managing: true })).toContain('<button type="button" class="button button--ghost" disabled="" aria-busy="true">Opening...</button>');
  });
  it('nothing to manage: no button; Free never has one', () => {
    expect(actions(cards({}))).toEqual(['', 'Current plan']);
    expect(actions(cards({ canManage: true, tier: 'free' }))).toEqual(['Current plan', 'Start 7-day free trial']);
  });
});

describe('openManagePage', () => {
  it("goes to the provider's page", async () => {
    const go = vi.fn();
    expect(await openManagePage({ manage: () => Promise.resolve({ url: 'https://billing.stripe.com/p/session/x' }), go, origin: ORIGIN })).toEqual({ kind: 'leaving' });
    expect(go).toHaveBeenCalledWith('https://billing.stripe.com/p/session/x');
  });
  it('a path on this site (the embedded provider) too; never a javascript: URL', async () => {
    const go = vi.fn();
    await openManagePage({ manage: () => Promise.resolve({ url: '/pay/manage/abc' }), go, origin: ORIGIN });
    expect(go).toHaveBeenCalledWith(`${ORIGIN}/pay/manage/abc`);
    expect(await openManagePage({ manage: () => Promise.resolve({ url: 'javascript:alert(1)' }), go, origin: ORIGIN })).toEqual({ kind: 'failed', message: MANAGE_FAILED });
    expect(go).toHaveBeenCalledTimes(1);
  });
  it("the server's message when it gave one, ours otherwise", async () => {
    const go = vi.fn();
    const said = new ApiError(404, 'NOT_FOUND', 'You have no subscription to manage.', 'You have no subscription to manage.');
    expect(await openManagePage({ manage: () => Promise.reject(said), go, origin: ORIGIN })).toEqual({ kind: 'failed', message: 'You have no subscription to manage.' });
    expect(await openManagePage({ manage: () => Promise.reject(new Error('x')), go, origin: ORIGIN })).toEqual({ kind: 'failed', message: MANAGE_FAILED });
  });
});
