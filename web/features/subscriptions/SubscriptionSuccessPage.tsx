import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { activateSubscriptionRoute, SUBSCRIPTION_MESSAGES, verifySubscriptionRoute } from '../../../shared/schemas/subscriptions.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { returnPathOf } from '../../lib/paths.ts';
import { signInHref } from '../../lib/signInHref.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { abortableWait, sessionIdFrom, trialEndLabel, verifyAndActivate, type SuccessState } from './subscriptionSuccess.ts';
import './SubscriptionResult.css';
import './SubscriptionSuccessPage.css';

/**
 * /subscription-success?session_id=...: where the checkout sends a new subscriber. 'Verifying...'
 * while the server checks the checkout with the payment provider (asking again while it is still
 * open, up to 3 times) and activates it; then the next steps and a link to the creator's
 * channel, or what went wrong. Signed out, it asks to sign in first (the session is the
 * signed-in user's own).
 */
export function SubscriptionSuccessPage() {
  useDocumentTitle('Subscription');
  const [params] = useSearchParams();
  const location = useLocation();
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  const sessionId = sessionIdFrom(params);
  const signedIn = status === 'signed-in' && user !== null;
  const [state, setState] = useState<{ key: string; value: SuccessState } | null>(null);
  const key = `${user?.id ?? ''}:${sessionId ?? ''}`;

  useEffect(() => {
    if (!signedIn) return;
    const controller = new AbortController();
    const { signal } = controller;
    void verifyAndActivate(
      {
        verify: (id) => request(verifySubscriptionRoute, { params: { sessionId: id }, signal }),
        activate: (id) => request(activateSubscriptionRoute, { body: { session_id: id }, signal }),
        wait: abortableWait(signal),
        onAttempt: (attempt) => setState({ key, value: { kind: 'verifying', attempt } }),
      },
      sessionId,
    ).then((outcome) => {
      if (outcome.kind !== 'aborted' && !signal.aborted) setState({ key, value: outcome });
    });
    return () => controller.abort();
  }, [key, signedIn, sessionId]);

  const view: SuccessState | 'checking' =
    status === 'loading' || (status === 'signed-in' && !user)
      ? 'checking'
      : !signedIn
        ? { kind: 'signed-out', message: SUBSCRIPTION_MESSAGES.signIn }
        : state && state.key === key
          ? state.value
          : { kind: 'verifying', attempt: 1 };

  return (
    <section className="subscription-result" aria-labelledby="subscription-success-title">
      <h1 id="subscription-success-title" className="subscription-result__title">
        Your subscription
      </h1>
      <SubscriptionSuccessView
        state={view === 'checking' ? { kind: 'verifying', attempt: 1 } : view}
        channelPath={user ? `/channel/${encodeURIComponent(user.username)}` : null}
        signInPath={signInHref(returnPathOf(location))}
      />
    </section>
  );
}

export interface SuccessViewProps {
  state: SuccessState;
  /** The signed-in creator's channel. */
  channelPath: string | null;
  signInPath: string;
  locale?: string;
}

/** The page's body for each state (rendered on its own by the tests). */
export function SubscriptionSuccessView({ state, channelPath, signInPath, locale }: SuccessViewProps) {
  switch (state.kind) {
    case 'verifying':
      return <StatusMessage kind="loading" title="Verifying..." />;
    case 'signed-out':
      return (
        <StatusMessage kind="info" title={state.message}>
          <a className="button button--primary" href={signInPath}>
            Sign in
          </a>
        </StatusMessage>
      );
    case 'error':
      return (
        <StatusMessage kind="error" title={state.message}>
          <p>If you were charged, your subscription will show on the plans page once the payment service confirms it.</p>
          <Link to="/subscription-tiers">Back to plans</Link>
        </StatusMessage>
      );
    case 'success': {
      const { subscription } = state;
      const trialEnd = subscription.status === 'trialing' ? trialEndLabel(subscription.trial_end, locale) : null;
      return (
        <div className="subscription-result__card">
          <p className="subscription-success__lead" role="status">
            {subscription.tier === 'pro' ? 'Welcome to Pro! Your subscription is active.' : 'Your payment was verified.'}
          </p>
          {trialEnd && <p>Your free trial runs until {trialEnd}. You can cancel any time before then from the plans page.</p>}
          <h2 className="subscription-success__heading">Next steps</h2>
          <ol className="subscription-success__steps">
            <li>
              <Link to="/upload">Upload a video</Link>: Pro allows longer, larger videos.
            </li>
            <li>
              <Link to="/payment-setup">Set up how you get paid</Link> for the merch fans make from your videos.
            </li>
            <li>Share your channel link so fans can find your videos and merch.</li>
          </ol>
          <div className="subscription-result__actions">
            {channelPath && (
              <Link className="button button--primary" to={channelPath}>
                Go to your channel
              </Link>
            )}
            <Link className="button button--ghost" to="/subscription-tiers">
              Your plan
            </Link>
          </div>
        </div>
      );
    }
  }
}
