/** Who may use /payment-setup, and where it sends people (spec sections 2 and 6). */
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import { finishDestination, isNewUserFlow, PAYMENT_SETUP_MESSAGES, setupAccess, signUpFirst } from './paymentSetupFlow.ts';

const user = (role: SessionUser['role'], is_admin = false): SessionUser => ({
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  username: 'ada',
  display_name: 'Ada',
  role,
  is_admin,
  profile_image_url: null,
  auth_picture_url: null,
});

describe('setupAccess', () => {
  it('waits while the session is being checked', () => {
    expect(setupAccess('loading', null, '?flow=new_user')).toEqual({ kind: 'loading' });
    expect(setupAccess('pending', null, '')).toEqual({ kind: 'loading' });
  });

  it('sends a signed-out visitor to sign up unless the flow is new_user', () => {
    expect(setupAccess('signed-out', null, '')).toEqual({ kind: 'sign-up' });
    expect(setupAccess('signed-out', null, '?flow=returning')).toEqual({ kind: 'sign-up' });
    expect(setupAccess('signed-out', null, '?flow=new_user')).toEqual({ kind: 'form', mode: 'pending' });
    expect(setupAccess('signed-out', null, '?ref=new_user')).toEqual({ kind: 'form', mode: 'pending' });
  });

  it('lets a signed-in creator (or admin) save, in either flow; a customer is refused', () => {
    expect(setupAccess('signed-in', user('creator'), '')).toEqual({ kind: 'form', mode: 'save' });
    expect(setupAccess('signed-in', user('creator'), '?flow=new_user')).toEqual({ kind: 'form', mode: 'save' });
    expect(setupAccess('signed-in', user('customer', true), '')).toEqual({ kind: 'form', mode: 'save' });
    expect(setupAccess('signed-in', user('customer'), '?flow=new_user')).toEqual({ kind: 'denied' });
  });

  it('reads the flow from either parameter', () => {
    expect(isNewUserFlow('?ref=new_user&x=1')).toBe(true);
    expect(isNewUserFlow('?flow=NEW_USER')).toBe(false);
  });
});

describe('destinations', () => {
  it('signs up first, coming back to the page', () => {
    expect(signUpFirst()).toEqual({ to: '/signup?returnTo=%2Fpayment-setup', state: { message: PAYMENT_SETUP_MESSAGES.signUpFirst } });
  });

  it('ends at /dashboard for a creator and at /signup for the new-user flow, with a message for done and another for skipped', () => {
    expect(finishDestination('save', 'done')).toEqual({ to: '/dashboard', state: { message: PAYMENT_SETUP_MESSAGES.done } });
    expect(finishDestination('save', 'skipped')).toEqual({ to: '/dashboard', state: { message: PAYMENT_SETUP_MESSAGES.skipped } });
    expect(finishDestination('pending', 'done')).toEqual({ to: '/signup?returnTo=%2Fdashboard', state: { message: PAYMENT_SETUP_MESSAGES.newUserDone } });
    expect(finishDestination('pending', 'skipped')).toEqual({ to: '/signup?returnTo=%2Fdashboard', state: { message: PAYMENT_SETUP_MESSAGES.newUserSkipped } });
    const messages = [PAYMENT_SETUP_MESSAGES.done, PAYMENT_SETUP_MESSAGES.skipped, PAYMENT_SETUP_MESSAGES.newUserDone, PAYMENT_SETUP_MESSAGES.newUserSkipped];
    expect(new Set(messages).size).toBe(4);
  });
});
