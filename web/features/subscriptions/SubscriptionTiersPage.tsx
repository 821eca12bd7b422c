import { useId } from 'react';
import { useLocation } from 'react-router';
import { formatCents } from '../../../shared/money.ts';
import { SUBSCRIPTION_TIER_IDS, SUBSCRIPTION_TIERS, type SubscriptionTier, type TierDetails } from '../../../shared/subscriptions.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { returnPathOf } from '../../lib/paths.ts';
import { signInHref } from '../../lib/signInHref.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { EarningsCalculator } from './EarningsCalculator.tsx';
import { useCurrentPlan } from './useCurrentTier.ts';
import { useManageSubscription } from './useManageSubscription.ts';
import { useSubscribe } from './useSubscribe.ts';
import './SubscriptionTiersPage.css';

/**
 * /subscription-tiers (spec section 3): Free and Pro side by side with what each allows, Pro's
 * Start trial button (signed out, it signs in first), and the earnings calculator. A subscriber
 * sees 'Current plan' on Pro and 'Manage subscription' (the payment provider's page).
 */
export function SubscriptionTiersPage() {
  useDocumentTitle('Subscription tiers');
  const ids = useId();
  const location = useLocation();
  const status = useAuth((s) => s.status);
  const plan = useCurrentPlan();
  const { subscribe, busy, error } = useSubscribe();
  const manage = useManageSubscription();
  const viewer: Viewer = status === 'signed-in' ? 'signed-in' : status === 'signed-out' ? 'signed-out' : 'checking';

  return (
    <section className="subscription-tiers" aria-labelledby={`${ids}-title`}>
      <header className="subscription-tiers__intro">
        <h1 id={`${ids}-title`} className="subscription-tiers__title">
          Choose your plan
        </h1>
        <p className="subscription-tiers__muted">
          Start free, or go Pro for longer, larger videos. On either plan you earn from the merch fans make from your videos.
        </p>
      </header>
      {error && <StatusMessage kind="error" title={error} />}
      {manage.error && <StatusMessage kind="error" title={manage.error} />}
      <TierCards
        viewer={viewer}
        currentTier={plan?.tier ?? null}
        busy={busy}
        onSubscribe={subscribe}
        canManage={plan?.canManage === true}
        managing={manage.busy}
        onManage={manage.manage}
        onStartFree={() => window.location.assign(signInHref(returnPathOf(location)))}
      />
      <EarningsCalculator />
    </section>
  );
}

/** `checking`: the session is still being read, so neither sign-in nor checkout is offered yet. */
export type Viewer = 'checking' | 'signed-out' | 'signed-in';

interface TierCardsProps {
  viewer: Viewer;
  /** The signed-in user's tier, or null when not known. */
  currentTier: SubscriptionTier | null;
  /** A checkout is starting (or the page is being left for it). */
  busy: boolean;
  onSubscribe: () => void;
  onStartFree: () => void;
  /** The current paid plan can be managed at the payment provider (shown on its card). */
  canManage?: boolean;
  /** The provider's page is being opened. */
  managing?: boolean;
  onManage?: () => void;
}

export function priceLabel(tier: TierDetails): string {
  return `${tier.monthlyPriceCents === 0 ? '$0' : formatCents(tier.monthlyPriceCents)}/month`;
}

export function subscribeLabel(tier: TierDetails): string {
  return tier.trialDays > 0 ? `Start ${tier.trialDays}-day free trial` : `Subscribe to ${tier.name}`;
}

/** The two tiers as cards; each ends with its action: Current plan, Start Free, or Pro's button. */
export function TierCards({ viewer, currentTier, busy, onSubscribe, onStartFree, canManage = false, managing = false, onManage }: TierCardsProps) {
  const ids = useId();
  return (
    <ul className="subscription-tiers__cards" aria-label="Subscription tiers">
      {SUBSCRIPTION_TIER_IDS.map((id) => {
        const tier = SUBSCRIPTION_TIERS[id];
        const current = viewer === 'signed-in' && currentTier === id;
        const titleId = `${ids}-${id}`;
        return (
          <li
            key={id}
            className={`subscription-tiers__card subscription-tiers__card--${id}${current ? ' subscription-tiers__card--current' : ''}`}
            aria-labelledby={titleId}
          >
            <h2 id={titleId} className="subscription-tiers__card-title">
              {tier.name}
            </h2>
            <p className="subscription-tiers__price">{priceLabel(tier)}</p>
            <ul className="subscription-tiers__features" aria-label={`${tier.name} includes`}>
              {tier.features.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
            <div className="subscription-tiers__action">
              {current ? (
                <>
                  <p className="subscription-tiers__current">Current plan</p>
                  {id !== 'free' && canManage && onManage && (
                    <button type="button" className="button button--ghost" disabled={managing} aria-busy={managing || undefined} onClick={onManage}>
                      {managing ? 'Opening...' : 'Manage subscription'}
                    </button>
                  )}
                </>
              ) : id === 'free' ? (
                viewer !== 'signed-in' && (
                  <button type="button" className="button button--ghost" disabled={viewer === 'checking'} onClick={onStartFree}>
                    Start Free
                  </button>
                )
              ) : (
                <>
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={viewer === 'checking' || busy}
                    aria-busy={busy || undefined}
                    onClick={onSubscribe}
                  >
                    {busy ? 'Starting checkout...' : subscribeLabel(tier)}
                  </button>
                  {viewer === 'signed-out' && <p className="subscription-tiers__hint">You&apos;ll sign in first.</p>}
                </>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
