import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { Link, useSearchParams } from 'react-router';
import { approveSubscriptionRoute, SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { approvalLinkFrom, approveOnce, verifyApproval, type ApprovalLink, type ApprovalState } from './approveSubscription.ts';
import { abortableWait } from './subscriptionSuccess.ts';
import './SubscriptionResult.css';
import './ApproveSubscriptionPage.css';

/** The modal that sends an approval link (the layout's), handed in by the app layer. */
export type SubscribeModalComponent = ComponentType<{ onClose: () => void }>;

const APPROVE_TIMEOUT_MS = 15_000;

const sendApproval = (link: ApprovalLink) =>
  request(approveSubscriptionRoute, { body: { email: link.email, token: link.token }, signal: AbortSignal.timeout(APPROVE_TIMEOUT_MS) });

/**
 * /approve-subscription?email=...&token=...: the link in the approval email. Without an address
 * or a token it is the invalid-link state at once; otherwise 'Verifying...' for at least 2 s
 * while the server checks the link (signed, 24 hours, single use), then the approval or the
 * invalid-link state, from which a new link can be asked for.
 */
export function ApproveSubscriptionPage({ SubscribeModal }: { SubscribeModal: SubscribeModalComponent }) {
  useDocumentTitle(SUBSCRIPTION_MESSAGES.approvalTitle);
  const [params] = useSearchParams();
  const link = approvalLinkFrom(params);
  const email = link?.email ?? null;
  const token = link?.token ?? null;
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; state: ApprovalState } | null>(null);
  const [asking, setAsking] = useState(false);
  const key = `${attempt}\n${email ?? ''}\n${token ?? ''}`;

  useEffect(() => {
    if (email === null || token === null) return;
    const controller = new AbortController();
    // The request is not aborted when the page is left: it may already have used the link, and
    // approveOnce hands its answer to the page's next mount. Only the wait ends.
    void verifyApproval(approveOnce(sendApproval, { email, token }), abortableWait(controller.signal)).then((state) => {
      if (state && !controller.signal.aborted) setResult({ key, state });
    });
    return () => controller.abort();
  }, [key, email, token]);

  const state: ApprovalState = link === null ? { kind: 'invalid' } : result && result.key === key ? result.state : { kind: 'verifying' };

  return (
    <section className="subscription-result" aria-labelledby="approve-subscription-title">
      <h1 id="approve-subscription-title" className="subscription-result__title">
        {SUBSCRIPTION_MESSAGES.approvalTitle}
      </h1>
      <ApproveSubscriptionView state={state} onNewLink={() => setAsking(true)} onRetry={() => setAttempt((n) => n + 1)} />
      {asking && (
        <Suspense fallback={null}>
          <SubscribeModal onClose={() => setAsking(false)} />
        </Suspense>
      )}
    </section>
  );
}

export interface ApproveSubscriptionViewProps {
  state: ApprovalState;
  /** Opens the modal that sends a new approval link. */
  onNewLink: () => void;
  /** Asks the server again (after a failure to reach it). */
  onRetry: () => void;
}

/** The page's body for each state (rendered on its own by the tests). */
export function ApproveSubscriptionView({ state, onNewLink, onRetry }: ApproveSubscriptionViewProps) {
  switch (state.kind) {
    case 'verifying':
      return <StatusMessage kind="loading" title={SUBSCRIPTION_MESSAGES.approvalVerifying} />;
    case 'approved':
      return (
        <div className="subscription-result__card" role="status" aria-labelledby="approve-subscription-done">
          <h2 id="approve-subscription-done" className="approve-subscription__heading">
            {SUBSCRIPTION_MESSAGES.approved}
          </h2>
          <p>
            FrameMerch updates will come to <strong className="approve-subscription__email">{state.email}</strong>.
          </p>
          <div className="subscription-result__actions">
            <Link className="button button--primary" to="/">
              Go to the home page
            </Link>
          </div>
        </div>
      );
    case 'invalid':
      return (
        <StatusMessage kind="error" title={SUBSCRIPTION_MESSAGES.approvalInvalid}>
          <p className="approve-subscription__hint">{SUBSCRIPTION_MESSAGES.approvalNewLinkHint}</p>
          <div className="subscription-result__actions approve-subscription__centred">
            <button type="button" className="button button--primary" onClick={onNewLink}>
              {SUBSCRIPTION_MESSAGES.approvalNewLink}
            </button>
            <Link className="button button--ghost" to="/">
              Go to the home page
            </Link>
          </div>
        </StatusMessage>
      );
    case 'failed':
      return (
        <StatusMessage kind="error" title={state.message}>
          <div className="subscription-result__actions approve-subscription__centred">
            <button type="button" className="button button--primary" onClick={onRetry}>
              Try again
            </button>
          </div>
        </StatusMessage>
      );
  }
}
