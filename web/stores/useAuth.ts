/**
 * Who is signed in. The server's HttpOnly session cookie is the only source of identity:
 * this store asks GET /api/auth/me and keeps the answer in memory, nothing in storage.
 */
import { create } from 'zustand';
import { deleteAccountRoute, loginRoute, logoutRoute, meRoute, signupRoute, type SessionUser } from '../../shared/schemas/auth.ts';
import { request } from '../lib/api.ts';
import { isApiError } from '../lib/ApiError.ts';
import { LEGACY_AUTH_KEYS } from '../lib/signInReturn.ts';

export type { SessionUser };
/** `pending`: back from the identity provider, the session is being confirmed. */
export type AuthStatus = 'loading' | 'pending' | 'signed-in' | 'signed-out';
export type AuthMode = 'login' | 'signup';
export type DeleteOutcome = { result: 'deleted' } | { result: 'refused'; message: string } | { result: 'failed' };

/** Spec section 9: the session check (and a sign-in confirmation) gives up after 5 s. */
const SESSION_CHECK_TIMEOUT_MS = 5_000;
/** Spec section 7: login and signup time out after 15 s. */
const AUTH_TIMEOUT_MS = 15_000;

interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  /** The server said the session ran out; the app layer sends the visitor to sign in again. */
  expired: boolean;
  /**
   * Asks the server who is signed in: no user, or any failure (401, network, timeout), means
   * signed out.
   * `confirming` shows the `pending` status meanwhile (a sign-in that just came back).
   */
  load: (options?: { confirming?: boolean }) => Promise<void>;
  /** Email and password; resolves with the user or rejects with the request's error. */
  authenticate: (mode: AuthMode, credentials: { email: string; password: string }) => Promise<SessionUser>;
  logout: () => Promise<void>;
  /** Deletes the account. `refused` carries the server's message; `failed` means it was not reached. */
  deleteAccount: () => Promise<DeleteOutcome>;
  /** The app layer has acted on `expired`. */
  acknowledgeExpiry: () => void;
}

/** Wipes what older clients stored about a sign-in (spec: clear=true and sign-out). */
export function clearLegacyAuthKeys(): void {
  for (const storage of [globalThis.localStorage, globalThis.sessionStorage]) {
    try {
      for (const key of LEGACY_AUTH_KEYS) storage?.removeItem(key);
    } catch {
      // Storage can be disabled; there is then nothing to clear.
    }
  }
}

let inFlight: Promise<void> | null = null;
/** Bumped by every sign-in and sign-out, so a session check that started before one cannot undo it. */
let generation = 0;

export const useAuth = create<AuthState>()((set, get) => ({
  status: 'loading',
  user: null,
  expired: false,
  load: ({ confirming = false } = {}) => {
    if (confirming) set({ status: 'pending' });
    const started = generation;
    inFlight ??= request(meRoute, { signal: AbortSignal.timeout(SESSION_CHECK_TIMEOUT_MS) })
      .then(
        (reply) => {
          if (started !== generation) return;
          // Signed out is a 200 with no user; only a session that ran out is an error (401 SESSION_EXPIRED).
          if (reply.user) set({ status: 'signed-in', user: reply.user });
          else set({ status: 'signed-out', user: null, expired: false });
        },
        (error: unknown) => {
          if (started !== generation) return;
          const expired = isApiError(error) && error.code === 'SESSION_EXPIRED';
          set({ status: 'signed-out', user: null, expired });
        },
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  },
  authenticate: async (mode, credentials) => {
    const options = { body: credentials, signal: AbortSignal.timeout(AUTH_TIMEOUT_MS) };
    const reply = mode === 'login' ? await request(loginRoute, options) : await request(signupRoute, options);
    generation++;
    set({ status: 'signed-in', user: reply.user, expired: false });
    return reply.user;
  },
  logout: async () => {
    // Signed out locally whatever the server answers; a stale cookie expires on its own.
    await request(logoutRoute).catch(() => undefined);
    generation++;
    clearLegacyAuthKeys();
    set({ status: 'signed-out', user: null });
  },
  deleteAccount: async () => {
    const user = get().user;
    if (!user) return { result: 'failed' };
    try {
      await request(deleteAccountRoute, { params: { id: user.id } });
      generation++;
      clearLegacyAuthKeys();
      set({ status: 'signed-out', user: null });
      return { result: 'deleted' };
    } catch (error) {
      return isApiError(error) && error.status > 0 ? { result: 'refused', message: error.message } : { result: 'failed' };
    }
  },
  acknowledgeExpiry: () => set({ expired: false }),
}));
