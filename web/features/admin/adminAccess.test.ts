import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/ApiError.ts';
import { ADMIN_TABS, adminAccess, errorText, isForbidden, tabFromParam, tabParams } from './adminAccess.ts';

describe('tabs', () => {
  it("are the spec's five (Dashboard, User Management, Content Moderation, Subscriptions, System Settings) with Orders, Payouts and Logs", () => {
    expect(ADMIN_TABS.map((t) => t.label)).toEqual([
      'Dashboard',
      'User Management',
      'Content Moderation',
      'Subscriptions',
      'Orders',
      'Payouts',
      'System Settings',
      'Logs',
    ]);
  });

  it('?tab= picks a tab; none or an unknown one is the dashboard', () => {
    expect(tabFromParam('users')).toBe('users');
    expect(tabFromParam('logs')).toBe('logs');
    expect(tabFromParam(null)).toBe('dashboard');
    expect(tabFromParam('subscriptions')).toBe('subscriptions');
    expect(tabFromParam('refunds')).toBe('dashboard');
  });

  it('the dashboard is the bare /admin; other tabs are named in the address', () => {
    expect(tabParams('dashboard')).toEqual({});
    expect(tabParams('moderation')).toEqual({ tab: 'moderation' });
  });
});

describe('adminAccess', () => {
  it('waits while the session is checked or confirmed', () => {
    expect(adminAccess('loading', null)).toBe('loading');
    expect(adminAccess('pending', null)).toBe('loading');
  });
  it('signed out asks to sign in; a non-admin is denied; an admin gets the portal', () => {
    expect(adminAccess('signed-out', null)).toBe('signed-out');
    expect(adminAccess('signed-in', { is_admin: false })).toBe('denied');
    expect(adminAccess('signed-in', { is_admin: true })).toBe('admin');
  });
});

describe('errors', () => {
  const forbidden = new ApiError(403, 'FORBIDDEN', 'Access denied. Admin privileges required.', 'Access denied. Admin privileges required.');
  it('a 403 from the server counts as a non-admin visit; other failures do not', () => {
    expect(isForbidden(forbidden)).toBe(true);
    expect(isForbidden(new ApiError(401, 'UNAUTHENTICATED', 'Not authenticated.'))).toBe(false);
    expect(isForbidden(new Error('boom'))).toBe(false);
  });
  it("shows the server's message, else the fallback", () => {
    expect(errorText(new ApiError(409, 'CONFLICT', 'This user is already suspended.'), 'x')).toBe('This user is already suspended.');
    expect(errorText(new TypeError('x'), 'Failed to load users.')).toBe('Failed to load users.');
  });
});
