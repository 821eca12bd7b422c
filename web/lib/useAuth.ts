import { create } from 'zustand';
import type { ReplyOf } from '../../shared/schemas/route.ts';
import { request } from './api.ts';
import { isApiError } from './ApiError.ts';
import { deleteAccountRoute, logoutRoute, meRoute } from '../../shared/schemas/auth.ts';

export type SessionUser = ReplyOf<typeof meRoute>['user'];
export type AuthStatus = 'loading' | 'signed-in' | 'signed-out';
export type DeleteOutcome = { result: 'deleted' } | { result: 'refused'; message: string } | { result: 'failed' };

/** Spec section 9: the session check gives up after 5 s. */
const SESSION_CHECK_TIMEOUT_MS = 5_000;

interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  /** Asks the server who is signed in; any failure (401, 404, network, timeout) means signed out. */
  load: () => Promise<void>;
  logout: () => Promise<void>;
  /** Deletes the account. `refused` carries the server's message; `failed` means it was not reached. */
  deleteAccount: () => Promise<DeleteOutcome>;
}

let inFlight: Promise<void> | null = null;

export const useAuth = create<AuthState>()((set, get) => ({
  status: 'loading',
  user: null,
  load: () => {
    inFlight ??= request(meRoute, { signal: AbortSignal.timeout(SESSION_CHECK_TIMEOUT_MS) })
      .then(
        (reply) => set({ status: 'signed-in', user: reply.user }),
        () => set({ status: 'signed-out', user: null }),
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  },
  logout: async () => {
    // Signed out locally whatever the server answers; a stale cookie expires on its own.
    await request(logoutRoute).catch(() => undefined);
    set({ status: 'signed-out', user: null });
  },
  deleteAccount: async () => {
    const user = get().user;
    if (!user) return { result: 'failed' };
    try {
      await request(deleteAccountRoute, { params: { id: user.id } });
      set({ status: 'signed-out', user: null });
      return { result: 'deleted' };
    } catch (error) {
      return isApiError(error) && error.status > 0 ? { result: 'refused', message: error.message } : { result: 'failed' };
    }
  },
}));
