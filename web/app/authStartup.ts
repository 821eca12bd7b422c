/**
 * Once per page load: the session check, what a sign-in return left in the address
 * (spec section 4, "Sign-in return"), and the redirect when the session has expired.
 */
import type { createBrowserRouter } from 'react-router';
import { authPagePath, returnPathOf } from '../lib/paths.ts';
import { hasAnyParam, readSignInReturn, withoutParams } from '../lib/signInReturn.ts';
import { clearLegacyAuthKeys, useAuth } from '../stores/useAuth.ts';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Fired once a sign-in through the identity provider is confirmed; later features listen for it. */
export const OAUTH_SUCCESS_EVENT = 'oauthSuccess';
const CONFIRM_FAILED = 'Login successful but there was an error processing your data. Please try again.';

/** Drops parameters from the current address without a new history entry. */
function dropParams(router: AppRouter, names: readonly string[]): void {
  const { pathname, search, hash } = router.state.location;
  if (!hasAnyParam(search, names)) return;
  void router.navigate({ pathname, search: withoutParams(search, names), hash }, { replace: true, preventScrollReset: true });
}

function redirectWhenExpired(router: AppRouter): void {
  const onExpired = () => {
    useAuth.getState().acknowledgeExpiry();
    const target = authPagePath('/login', returnPathOf(router.state.location), 'session_expired');
    void router.navigate(target, { replace: true });
  };
  useAuth.subscribe((state) => {
    if (state.expired) onExpired();
  });
  if (useAuth.getState().expired) onExpired();
}

export function startAuth(router: AppRouter): void {
  redirectWhenExpired(router);
  const found = readSignInReturn(router.state.location.search);
  if (found.clear) clearLegacyAuthKeys();

  if (found.login === 'success') {
    // One /api/auth/me with the 5 s limit stands for the spec's 50 polls of 100 ms.
    void useAuth
      .getState()
      .load({ confirming: true })
      .then(() => {
        if (useAuth.getState().status === 'signed-in') window.dispatchEvent(new Event(OAUTH_SUCCESS_EVENT));
        else window.alert(CONFIRM_FAILED);
        dropParams(router, ['login', 'clear']);
      });
    return;
  }

  void useAuth.getState().load();
  // After the first render, so the page is visible behind the alert.
  setTimeout(() => {
    if (found.login === 'error') {
      window.alert(found.alertText);
      void router.navigate('/', { replace: true });
    } else if (found.clear) {
      dropParams(router, ['clear']);
    }
  }, 0);
}
