/** The errors the payout adapters throw. */

/**
 * The provider could not be asked, or refused for a reason that is not the payout's (its keys,
 * its balance, its availability): nothing was decided, and the same request (same idempotency
 * key) may be sent again later. A refusal of the payout itself is answered as a submission with
 * status 'failed' instead.
 */
export class PayoutProviderError extends Error {
  override name = 'PayoutProviderError';
  constructor(
    message: string,
    /** The provider's HTTP status (0: not reached). */
    readonly status: number,
  ) {
    super(message);
  }
}

/** A webhook that is not the provider's (bad or missing signature, stale, not its format): nothing may change. */
export class PayoutWebhookError extends Error {
  override name = 'PayoutWebhookError';
  constructor(
    message: string,
    readonly reason: 'signature' | 'malformed',
  ) {
    super(message);
  }
}
