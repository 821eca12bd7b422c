/** The session check: what each answer of GET /api/auth/me makes of the store. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from './useAuth.ts';

const USER = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  username: 'ada',
  display_name: 'Ada',
  role: 'creator' as const,
  is_admin: false,
  profile_image_url: null,
  auth_picture_url: null,
};

function answer(status: number, body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));
}

afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.setState({ status: 'loading', user: null, expired: false });
});

describe('useAuth.load', () => {
  it('is signed in when the server names the user', async () => {
    answer(200, { success: true, user: USER });
    await useAuth.getState().load();
    expect(useAuth.getState()).toMatchObject({ status: 'signed-in', user: USER, expired: false });
  });

  it('is signed out, and not expired, when the server answers that no one is signed in', async () => {
    answer(200, { success: true, user: null });
    await useAuth.getState().load();
    expect(useAuth.getState()).toMatchObject({ status: 'signed-out', user: null, expired: false });
  });

  it('is signed out and expired when the session ran out', async () => {
    answer(401, { success: false, error: 'Your session expired. Please sign in again.', code: 'SESSION_EXPIRED' });
    await useAuth.getState().load();
    expect(useAuth.getState()).toMatchObject({ status: 'signed-out', user: null, expired: true });
  });
});
