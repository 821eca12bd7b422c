/**
 * Stripe Connect: creators as Express accounts, paid by transfers from the platform's balance.
 *
 *  - createOnboarding: accounts.create (type express, the creator's email, our user id in its
 *    metadata, the transfers capability asked for) and accountLinks.create (account_onboarding),
 *    answering the account id and the link the creator follows to Stripe;
 *  - submit: transfers.create with destination = the creator's account, the amount in cents and
 *    Idempotency-Key = the request's idempotency key (one per creator and period), so a repeated
 *    request answers the same transfer; our payout id and key ride in the transfer's metadata;
 *  - webhooks (Stripe's signature, within 300 s, against STRIPE_CONNECT_WEBHOOK_SECRET, which may
 *    hold several secrets): account.updated becomes the creator's connect status, transfer.created
 *    pays, transfer.reversed (in full) fails, and payout.paid / payout.failed decide a payout
 *    whose metadata names one of ours.
 */
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { verifyWebhookBody, type PaymentEvent } from '../stripe/index.ts';
import { PayoutProviderError, PayoutWebhookError } from './errors.ts';
import type { PayoutEvent, PayoutProvider, PayoutRequest, PayoutSubmission } from './provider.ts';

/** The connect statuses a creator's setup knows (users.stripe_connect_status). */
export type ConnectAccountStatus = 'pending' | 'active' | 'restricted' | 'disabled';

/** What an account.updated event says about a creator's account. */
export interface ConnectAccountUpdate {
  eventId: string;
  accountId: string;
  /** Our user id, from the account's metadata (null for an account made elsewhere). */
  userId: string | null;
  status: ConnectAccountStatus;
  occurredAt: Date;
}

/** What a Connect webhook comes to. */
export type ConnectWebhookOutcome =
  | { kind: 'payout'; event: PayoutEvent }
  | { kind: 'account'; update: ConnectAccountUpdate }
  | { kind: 'ignored'; eventId: string; type: string };

export interface ConnectOnboarding {
  accountId: string;
  /** Where the creator goes to finish onboarding (single use, short-lived). */
  url: string;
}

/** What the payouts module needs for onboarding, from either Stripe or the embedded twin. */
export interface ConnectOnboarder {
  createOnboarding(userId: string, email: string, returnUrl: string, options?: { accountId?: string | null; refreshUrl?: string }): Promise<ConnectOnboarding>;
}

export interface StripeConnectOptions {
  secretKey: string;
  /** whsec_... of the endpoints that send to /api/webhooks/stripe-connect (Connect and account events). */
  webhookSecrets: readonly string[];
  /** Stripe's API host by default; tests point these at a local stand-in. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** An Express account's state as the creator's connect status. */
export function connectStatusOf(account: Json): ConnectAccountStatus {
  const requirements = obj(account.requirements);
  const disabledReason = str(requirements?.disabled_reason);
  if (disabledReason?.startsWith('rejected')) return 'disabled';
  if (account.payouts_enabled === true && account.details_submitted === true) {
    const transfers = str(obj(account.capabilities)?.transfers);
    return transfers === undefined || transfers === 'active' ? 'active' : 'restricted';
  }
  return account.details_submitted === true ? 'restricted' : 'pending';
}

/**
 * A verified Connect event read: the creator's account state, a payout's outcome, or nothing
 * that concerns payouts. Throws PayoutWebhookError for an event that is not Stripe's shape.
 */
export function connectOutcomeFromEvent(event: PaymentEvent | Json): ConnectWebhookOutcome {
  const e = event as Json;
  const id = str(e.id);
  const type = str(e.type);
  const object = obj(obj(e.data)?.object);
  if (!id || id.length > 255 || !type || !object) throw new PayoutWebhookError('Not a Stripe event.', 'malformed');
  const occurredAt = new Date((typeof e.created === 'number' ? e.created : Math.floor(Date.now() / 1000)) * 1000);
  const ignored: ConnectWebhookOutcome = { kind: 'ignored', eventId: id, type };

  if (type === 'account.updated') {
    const accountId = str(object.id);
    if (!accountId) throw new PayoutWebhookError('An account event without its account.', 'malformed');
    return { kind: 'account', update: { eventId: id, accountId, userId: str(obj(object.metadata)?.user_id) ?? null, status: connectStatusOf(object), occurredAt } };
  }

  const metadata = obj(object.metadata) ?? {};
  const key = str(metadata.idempotency_key);
  if (!key) return ignored;

  if (type === 'transfer.created' || type === 'transfer.reversed' || type === 'transfer.failed') {
    const transferId = str(object.id);
    if (!transferId) throw new PayoutWebhookError('A transfer event without its transfer.', 'malformed');
    const base = { eventId: id, providerReference: transferId, idempotencyKey: key, occurredAt };
    if (type === 'transfer.created') return { kind: 'payout', event: { ...base, status: 'paid' } };
    if (type === 'transfer.failed') return { kind: 'payout', event: { ...base, status: 'failed', failureReason: 'Stripe could not make the transfer' } };
    // A transfer taken back in part still paid the rest: only a full reversal undoes the payout.
    const amount = Number(object.amount);
    const reversed = Number(object.amount_reversed);
    if (!(amount > 0 && reversed >= amount)) return ignored;
    return { kind: 'payout', event: { ...base, status: 'failed', failureReason: str(metadata.failure_reason) ?? 'The transfer was reversed' } };
  }

  if (type === 'payout.paid' || type === 'payout.failed') {
    // A payout of the connected account names ours only when the platform made it with our metadata.
    const reference = str(metadata.transfer_id) ?? str(object.id);
    if (!reference) return ignored;
    const base = { eventId: id, providerReference: reference, idempotencyKey: key, occurredAt };
    if (type === 'payout.paid') return { kind: 'payout', event: { ...base, status: 'paid' } };
    return { kind: 'payout', event: { ...base, status: 'failed', failureReason: (str(object.failure_message) ?? str(object.failure_code) ?? 'The payout to the bank failed').slice(0, 500) } };
  }
  return ignored;
}

/**
 * Checks a Stripe-Signature header against each secret (within 300 s either way) and answers the
 * event; throws PayoutWebhookError when none holds.
 */
export function verifyConnectWebhook(rawBody: Buffer, header: string | undefined, secrets: readonly string[], now = Date.now()): PaymentEvent {
  for (const secret of secrets) {
    try {
      return verifyWebhookBody(rawBody, header, secret, now);
    } catch {
      // The next secret may be the one.
    }
  }
  throw new PayoutWebhookError('The Stripe signature could not be verified.', 'signature');
}

/** One Express account per user and email: a repeated request (within Stripe's 24 hours) answers the same account. */
export function accountIdempotencyKey(userId: string, email: string): string {
  return `connect-account:${userId}:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16)}`;
}

export class StripeConnectPayouts implements PayoutProvider, ConnectOnboarder {
  readonly method = 'stripe_connect' as const;
  readonly kind = 'stripe' as const;
  readonly client: Stripe;

  constructor(private readonly options: StripeConnectOptions) {
    this.client = new Stripe(options.secretKey, {
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      timeout: options.timeoutMs ?? 20_000,
      // Retries resend the same idempotency key, so they never make a second transfer.
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      appInfo: { name: 'FrameMerch' },
    });
  }

  async createOnboarding(
    userId: string,
    email: string,
    returnUrl: string,
    options: { accountId?: string | null; refreshUrl?: string } = {},
  ): Promise<ConnectOnboarding> {
    try {
      const accountId =
        options.accountId ??
        (
          await this.client.accounts.create(
            { type: 'express', email, metadata: { user_id: userId }, capabilities: { transfers: { requested: true } } },
            { idempotencyKey: accountIdempotencyKey(userId, email) },
          )
        ).id;
      const link = await this.client.accountLinks.create({
        account: accountId,
        type: 'account_onboarding',
        return_url: returnUrl,
        refresh_url: options.refreshUrl ?? returnUrl,
      });
      return { accountId, url: link.url };
    } catch (err) {
      throw StripeConnectPayouts.#providerError('Stripe could not start onboarding', err);
    }
  }

  async submit(request: PayoutRequest): Promise<PayoutSubmission> {
    const d = request.destination;
    if (d.method !== 'stripe_connect') throw new TypeError(`payout ${request.payoutId} is not a Stripe Connect payout`);
    try {
      const transfer = await this.client.transfers.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          destination: d.accountId,
          description: `FrameMerch creator earnings for ${request.period.slice(0, 7)}`,
          transfer_group: `payouts:${request.period}`,
          metadata: { payout_id: request.payoutId, idempotency_key: request.idempotencyKey, user_id: request.userId, period: request.period },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { providerReference: transfer.id, status: 'processing' };
    } catch (err) {
      // Stripe refuses this transfer for the account's sake (gone, not onboarded, no transfers capability): the payout fails.
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code !== 'balance_insufficient') {
        return { providerReference: request.idempotencyKey, status: 'failed', failureReason: `Stripe refused the transfer: ${err.message}`.slice(0, 500) };
      }
      throw StripeConnectPayouts.#providerError('Stripe could not make the transfer', err);
    }
  }

  static #providerError(what: string, err: unknown): PayoutProviderError {
    const status = err instanceof Stripe.errors.StripeError ? (err.statusCode ?? 0) : 0;
    return new PayoutProviderError(`${what}: ${err instanceof Error ? err.message : String(err)}`, status);
  }

  verifyWebhook(rawBody: Buffer, header: string | undefined): PaymentEvent {
    return verifyConnectWebhook(rawBody, header, this.options.webhookSecrets);
  }
}
