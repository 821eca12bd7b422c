/** The admin views rendered to markup: what an admin reads in each row, and which buttons are live. */
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ADMIN, ENTRY, MAKER, STATS, SUSPENDED, VIDEO } from './adminFixtures.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { DashboardView } from './DashboardTab.tsx';
import { LoadMore } from './LoadMore.tsx';
import { LogList } from './LogList.tsx';
import { MaintenanceBannerView } from './MaintenanceBanner.tsx';
import { ReconciliationSummary } from './ReconciliationPanel.tsx';
import { BannerSetting, ModerationSetting, ThresholdSetting } from './SettingForms.tsx';
import { UserTable } from './UserTable.tsx';
import { VideoTable } from './VideoTable.tsx';

const render = (node: ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim();
const noop = () => undefined;

/** Each row's buttons: label and whether disabled. */
function rowButtons(html: string, rowStart: string) {
  const row = html.slice(html.indexOf(rowStart)).split(/<\/tr>|<\/li>/)[0]!;
  return [...row.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].map((m) => `${m[2]}${m[1]!.includes('disabled') ? ' (disabled)' : ''}`);
}

describe('DashboardView', () => {
  it('the cards and the recent activity', () => {
    const html = render(<DashboardView stats={STATS} recent={[ENTRY]} />);
    const t = text(html);
    expect(t).toContain('Total users 1,234');
    expect(t).toContain('Revenue $1,234.56');
    expect(t).toContain('Pending payouts $50.00');
    expect(t).toContain('Failed jobs 2');
    expect(t).toContain('Recent activity');
    expect(t).toContain('User suspended');
    expect(html).toContain('aria-label="Statistics"');
  });
  it('no activity yet', () => {
    expect(text(render(<DashboardView stats={STATS} recent={[]} />))).toContain('No admin actions yet.');
  });
});

describe('UserTable', () => {
  const html = render(<UserTable users={[ADMIN, MAKER, SUSPENDED]} selfId={ADMIN.id} busy={new Set()} onSuspend={noop} onActivate={noop} onDelete={noop} />);

  it('name, username, email, role, badges and created date per row', () => {
    const t = text(html);
    expect(t).toContain('Ada Admin You @ada ada@example.com Creator Admin Active');
    expect(t).toContain('Mia Maker @maker maker@example.com Creator Active');
    expect(t).toContain('Sam Spam @sam sam@example.com Customer Suspended');
    expect(html).toContain('<time dateTime="2026-03-04T10:00:00.000Z">');
  });
  it("the admin's own row: only Activate, disabled", () => {
    expect(rowButtons(html, `id="admin-user-${ADMIN.id}"`)).toEqual(['Activate (disabled)']);
  });
  it('active: Suspend and Delete; suspended: Activate and Delete', () => {
    expect(rowButtons(html, `id="admin-user-${MAKER.id}"`)).toEqual(['Suspend', 'Activate (disabled)', 'Delete']);
    expect(rowButtons(html, `id="admin-user-${SUSPENDED.id}"`)).toEqual(['Suspend (disabled)', 'Activate', 'Delete']);
  });
  it('a row with an action running has every button disabled', () => {
    const busy = render(<UserTable users={[MAKER]} selfId={ADMIN.id} busy={new Set([MAKER.id])} onSuspend={noop} onActivate={noop} onDelete={noop} />);
    expect(rowButtons(busy, `id="admin-user-${MAKER.id}"`)).toEqual(['Suspend (disabled)', 'Activate (disabled)', 'Delete (disabled)']);
  });
});

describe('VideoTable', () => {
  const videos = [VIDEO, { ...VIDEO, id: 'v2', title: 'Approved one', verification_status: 'approved' as const }, { ...VIDEO, id: 'v3', title: 'Rejected one', verification_status: 'rejected' as const }];
  const html = render(<VideoTable videos={videos} busy={new Set()} onApprove={noop} onReject={noop} onDelete={noop} />);

  it('thumbnail, title, creator, status badge and date', () => {
    expect(html).toContain('src="/media/thumbnails/sunset.jpg"');
    const t = text(html);
    expect(t).toContain('Sunset over the bay Mia Maker (@maker)');
    expect(html).toContain('admin-badge--pending');
    expect(html).toContain('aria-label="Videos for moderation"');
  });
  it('approve disabled when approved, reject disabled when rejected', () => {
    expect(rowButtons(html, `id="admin-video-${VIDEO.id}"`)).toEqual(['Approve', 'Reject', 'Delete']);
    expect(rowButtons(html, 'id="admin-video-v2"')).toEqual(['Approve (disabled)', 'Reject', 'Delete']);
    expect(rowButtons(html, 'id="admin-video-v3"')).toEqual(['Approve', 'Reject (disabled)', 'Delete']);
  });
});

describe('LogList', () => {
  it('a table with time, admin, action, target and compact details', () => {
    const html = render(<LogList entries={[ENTRY]} label="Admin log" />);
    expect(html).toContain('<caption class="visually-hidden">Admin log</caption>');
    const t = text(html);
    expect(t).toContain('Time Admin Action Target Details');
    expect(t).toContain('Ada Admin User suspended user 22222222-2222-4222-8222-222222222222 {"reason":"spam","count":2}');
  });
});

describe('LoadMore', () => {
  it('shown while there is a next page; busy while loading; the error above it', () => {
    expect(render(<LoadMore next={null} more="idle" moreError={null} onLoadMore={noop} />)).toBe('');
    expect(text(render(<LoadMore next="c1" more="idle" moreError={null} onLoadMore={noop} />))).toBe('Load more');
    expect(render(<LoadMore next="c1" more="loading" moreError={null} onLoadMore={noop} />)).toMatch(/disabled="">Loading...</);
    expect(text(render(<LoadMore next="c1" more="error" moreError={new Error('x')} onLoadMore={noop} />))).toBe('Failed to load more. Load more');
  });
});

describe('ConfirmDialog', () => {
  it('names what is deleted, Cancel first, the error shown', () => {
    const html = render(
      <ConfirmDialog title="Delete user?" confirmLabel="Delete user" busy={false} error="This is the last active admin: make another admin first." onConfirm={noop} onCancel={noop}>
        <p>Delete Mia Maker?</p>
      </ConfirmDialog>,
    );
    expect(text(html)).toBe('Delete user? Delete Mia Maker? This is the last active admin: make another admin first. Cancel Delete user');
    expect(html).toContain('<dialog');
    expect(html).toMatch(/data-autofocus="true"[^>]*>Cancel/);
  });
});

describe('setting forms', () => {
  it('moderation: a checkbox and Save', () => {
    const html = render(<ModerationSetting initial={true} />);
    expect(html).toMatch(/type="checkbox"[^>]*checked=""/);
    expect(text(html)).toContain('New uploads need approval');
    expect(text(html)).toContain('Save');
  });
  it('the payout threshold in dollars', () => {
    const html = render(<ThresholdSetting initialCents={5000} />);
    expect(html).toContain('value="50.00"');
    expect(text(html)).toContain('Threshold (USD)');
  });
  it('the banner with its counter', () => {
    const html = render(<BannerSetting initial="Back at 5 pm" />);
    expect(html).toContain('maxLength="280"');
    expect(text(html)).toContain('12 / 280 characters');
  });
});

describe('MaintenanceBannerView', () => {
  it('the text as a status, nothing when empty', () => {
    expect(render(<MaintenanceBannerView text="Maintenance tonight at 10" />)).toBe('<div class="maintenance-banner" role="status">Maintenance tonight at 10</div>');
    expect(render(<MaintenanceBannerView text={null} />)).toBe('');
  });
});

describe('ReconciliationSummary', () => {
  const run = {
    ran_at: '2026-11-27T03:00:00.000Z',
    since: '2026-11-24T03:00:00.000Z',
    provider: 'embedded',
    checked: 12,
    in_order: 10,
    repaired: [{ session_id: 'cs_test_a', order_id: '3f2a9c1e-0000-4000-8000-000000000001', effect: 'cancelled -> paid' }],
    refunded: [{ session_id: 'cs_test_b', order_id: null, why: 'no order' }],
  };
  it('the last run: counts, and each order repaired and payment refunded', () => {
    const t = text(render(<ReconciliationSummary run={run} />));
    expect(t).toContain('12 payments since');
    expect(t).toContain('10 in order, 1 repaired, 1 refunded.');
    expect(t).toContain('(cancelled → paid)');
    expect(t).toContain('Payment cs_test_b refunded: no order');
  });
  it('before the first run', () => {
    expect(text(render(<ReconciliationSummary run={null} />))).toBe('Not run yet: it runs every day at 03:00 UTC.');
  });
});
