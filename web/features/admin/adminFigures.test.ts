import { describe, expect, it } from 'vitest';
import { ADMIN_ACTION_LABELS, ADMIN_ACTION_TYPES } from '../../../shared/schemas/admin.ts';
import { actionLabel, compactDetails, dashboardCards, logLine } from './adminFigures.ts';
import { ENTRY, STATS } from './adminFixtures.ts';

describe('dashboardCards', () => {
  it('every figure of the dashboard, counts grouped and money in dollars', () => {
    const cards = dashboardCards(STATS);
    const byTitle = Object.fromEntries(cards.map((c) => [c.title, c.value]));
    expect(byTitle).toEqual({
      'Total users': '1,234',
      'Active users': '1,200',
      'Suspended users': '34',
      'Total videos': '88',
      'Pending videos': '5',
      'Approved videos': '80',
      'Total subscriptions': '40',
      'Active subscriptions': '30',
      'Premium subscriptions': '12',
      'Creator network': '3',
      Orders: '17',
      Revenue: '$1,234.56',
      'Pending payouts': '$50.00',
      'Failed jobs': '2',
    });
    expect(cards.find((c) => c.id === 'total_orders')?.note).toBe('15 paid');
    expect(new Set(cards.map((c) => c.id)).size).toBe(Object.keys(STATS).length - 1);
  });
});

describe('log lines', () => {
  it('time, admin, action, target type and id, details as one line of JSON', () => {
    const line = logLine(ENTRY, 'en-US');
    expect(line.admin).toBe('Ada Admin');
    expect(line.action).toBe('User suspended');
    expect(line.target).toBe('user 22222222-2222-4222-8222-222222222222');
    expect(line.details).toBe('{"reason":"spam","count":2}');
    expect(line.iso).toBe(ENTRY.created_at);
    expect(line.time).toContain('2026');
  });
  it('an admin deleted since shows as such; no details show a dash', () => {
    const line = logLine({ ...ENTRY, admin_user_id: null, admin_display_name: null, details: {} });
    expect(line.admin).toBe('Deleted admin');
    expect(line.details).toBe('—');
  });
  it('every action the log filters by has its label, and no label lacks its action', () => {
    expect([...ADMIN_ACTION_TYPES].sort()).toEqual(Object.keys(ADMIN_ACTION_LABELS).sort());
  });
  it('action labels', () => {
    expect(actionLabel('approve_video')).toBe('Video approved');
    expect(actionLabel('refund_order')).toBe('Order refunded');
    expect(actionLabel('some_new_action')).toBe('Some new action');
    expect(actionLabel('constructor')).toBe('Constructor');
    expect(compactDetails({ key: 'maintenance_banner', value: 'Back at 5' })).toBe('{"key":"maintenance_banner","value":"Back at 5"}');
  });
});
