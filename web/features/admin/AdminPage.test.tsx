/**
 * /admin rendered to markup (no DOM, so no effects run and no request is sent): the session's
 * states, the tab list and the tab named in the address.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminPage } from './AdminPage.tsx';
import { ADMIN, MAKER } from './adminFixtures.ts';

const auth = vi.hoisted(() => ({ state: { status: 'loading', user: null as unknown } }));
vi.mock('../../stores/useAuth.ts', () => ({ useAuth: <T,>(select: (s: typeof auth.state) => T) => select(auth.state) }));

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ').trim();

function page(url: string, status: string, user: unknown = null) {
  auth.state = { status, user };
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[url]}>
      <AdminPage />
    </MemoryRouter>,
  );
}

const tabs = (html: string) => [...html.matchAll(/<button[^>]*role="tab"[^>]*>([^<]*)<\/button>/g)].map((m) => ({ label: m[1], selected: m[0].includes('aria-selected="true"'), tabbable: m[0].includes('tabindex="0"') }));

beforeEach(() => {
  auth.state = { status: 'loading', user: null };
});

describe('AdminPage', () => {
  it('loading while the session is checked', () => {
    expect(text(page('/admin', 'loading'))).toBe('Loading...');
  });

  it("signed out: 'Not authenticated.' and Sign In", () => {
    const html = page('/admin', 'signed-out');
    expect(html).toContain('role="alert"');
    expect(text(html)).toBe('Not authenticated. Sign in with an admin account to open the admin portal. Sign In');
  });

  it('a signed-in non-admin is told access is denied (the alert and the way home run in an effect)', () => {
    const html = page('/admin', 'signed-in', { ...MAKER, is_admin: false });
    expect(text(html)).toBe('Access denied. Admin privileges required.');
    expect(html).not.toContain('role="tablist"');
  });

  it('an admin: eight tabs in a tablist, the dashboard selected at /admin', () => {
    const html = page('/admin', 'signed-in', ADMIN);
    expect(html).toContain('<h1');
    expect(html).toMatch(/role="tablist" aria-label="Admin sections"/);
    expect(tabs(html)).toEqual([
      { label: 'Dashboard', selected: true, tabbable: true },
      { label: 'User Management', selected: false, tabbable: false },
      { label: 'Content Moderation', selected: false, tabbable: false },
      { label: 'Subscriptions', selected: false, tabbable: false },
      { label: 'Orders', selected: false, tabbable: false },
      { label: 'Payouts', selected: false, tabbable: false },
      { label: 'System Settings', selected: false, tabbable: false },
      { label: 'Logs', selected: false, tabbable: false },
    ]);
    expect(html).toContain('role="tabpanel"');
    expect(text(html)).toContain('Loading the dashboard...');
  });

  it('?tab=users opens User Management with its filters', () => {
    const html = page('/admin?tab=users', 'signed-in', ADMIN);
    expect(tabs(html).find((t) => t.selected)?.label).toBe('User Management');
    expect(text(html)).toContain('Search users');
    expect(html).toMatch(/<option value="20" selected="">20<\/option><option value="50">50<\/option><option value="100">100<\/option>/);
    expect(text(html)).toContain('Loading users...');
  });

  it('?tab=moderation starts on pending videos', () => {
    const html = page('/admin?tab=moderation', 'signed-in', ADMIN);
    expect(tabs(html).find((t) => t.selected)?.label).toBe('Content Moderation');
    expect(html).toContain('<option value="pending" selected="">Pending</option>');
  });

  it('?tab=settings and ?tab=logs', () => {
    expect(text(page('/admin?tab=settings', 'signed-in', ADMIN))).toContain('Loading settings...');
    const logs = page('/admin?tab=logs', 'signed-in', ADMIN);
    expect(text(logs)).toContain('Action');
    expect(logs).toContain('<option value="refund_order">Order refunded</option>');
    expect(text(logs)).toContain('Target type');
  });

  it('?tab=subscriptions, ?tab=orders and ?tab=payouts open with their filters', () => {
    const subscriptions = page('/admin?tab=subscriptions', 'signed-in', ADMIN);
    expect(text(subscriptions)).toContain('Search subscribers');
    expect(subscriptions).toContain('<option value="pro">Pro</option>');
    expect(text(subscriptions)).toContain('Loading subscriptions...');
    const orders = page('/admin?tab=orders', 'signed-in', ADMIN);
    expect(text(orders)).toContain('Search orders');
    expect(orders).toContain('<option value="refunded">Refunded</option>');
    const payouts = page('/admin?tab=payouts', 'signed-in', ADMIN);
    expect(text(payouts)).toContain('Run payouts for');
    expect(text(payouts)).toContain('Loading payout runs...');
    expect(text(payouts)).toContain('Loading payouts...');
  });

  it('an unknown tab falls back to the dashboard', () => {
    expect(tabs(page('/admin?tab=refunds', 'signed-in', ADMIN)).find((t) => t.selected)?.label).toBe('Dashboard');
  });
});
