/** Where a creator who chose Stripe Connect goes on to finish onboarding (a new tab). */
export function OnboardingLink({ href }: { href: string }) {
  return (
    <a className="button button--primary payment-setup__onboarding" href={href} target="_blank" rel="noopener noreferrer">
      Continue Stripe onboarding
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
