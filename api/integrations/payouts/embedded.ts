/**
 * The embedded payout provider: a payout service inside this app for running without PayPal,
 * Stripe Connect or bank keys. It stands in for each method's real service and behaves as it
 * does, with state of its own:
 *
 *  - it keeps its payouts (embedded_payouts), one per idempotency key: a repeated submit answers
 *    the payout it already took, as PayPal's sender_batch_id and Stripe's Idempotency-Key do;
 *  - each payout settles after the method's processing days (PayPal 1, Stripe Connect 2, ACH 3,
 *    as payment_method_options says), each day scaled down to EMBEDDED_PAYOUT_SETTLE_MS, on its
 *    clock: a loop while the app serves, tick(now) in tests;
 *  - it fails on request, for testing: a PayPal email or a Stripe Connect account's email that
 *    ends in '.invalid' or '@fail.example' (reserved names: no real address has them), and the
 *    bank account number 000111111116 (Stripe's test number for an account that does not
 *    exist). What the real service refuses at once (a Stripe account that has not finished
 *    onboarding, a routing number whose check digit is wrong) it refuses at once too;
 *  - each outcome is written with its event in one transaction and delivered as the real
 *    service would: a PayPal-format webhook (PAYMENT.PAYOUTS-ITEM.SUCCEEDED / .FAILED, signed with
 *    PayPal's transmission headers, by an HMAC with a key of this app) for PayPal, a
 *    Stripe-signed event (transfer.created / transfer.reversed) for Stripe Connect, both POSTed
 *    to the app's own webhook routes, where the real services' events are read by the same
 *    code; ACH outcomes, which a bank does not announce, go to the payouts module directly as
 *    an admin's NACHA confirmation does. An event is retried with backoff until it is accepted;
 *  - Stripe Connect onboarding: an Express-like account per user and a page of this app
 *    (/pay/connect/<link token>) where the creator completes it, announced as account.updated.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import Stripe from 'stripe';
import type { PayoutMethodName } from '../../../shared/schemas/payouts.ts';
import type { DB } from '../../platform/db/schema.ts';
import { signWebhookBody } from '../stripe/index.ts';
import { NachaError, nachaEntryFor } from './nacha.ts';
import { centsToDollars, embeddedPayPalVerifier, signEmbeddedPayPalWebhook, type PayPalWebhookVerifier } from './paypal.ts';
import type { PayoutEvent, PayoutProvider, PayoutRequest, PayoutSubmission } from './provider.ts';
import {
  claimDuePayoutEvents,
  connectAccountById,
  connectAccountByToken,
  embeddedPayoutByKey,
  insertEmbeddedPayout,
  insertPayoutEvent,
  lockConnectAccountByToken,
  lockDueEmbeddedPayout,
  markPayoutEventDelivered,
  schedulePayoutEventRetry,
  setConnectAccountStatus,
  settleEmbeddedPayout,
  upsertConnectAccount,
  type ConnectAccountRow,
  type EmbeddedPayoutRow,
} from './repository.ts';
import type { ConnectOnboarder, ConnectOnboarding } from './stripe-connect.ts';

export type { ConnectAccountRow, EmbeddedPayoutRow } from './repository.ts';

/** Processing days of each method, as payment_method_options is seeded. */
export const EMBEDDED_PROCESSING_DAYS: Readonly<Record<PayoutMethodName, number>> = { paypal: 1, stripe_connect: 2, ach: 3 };
/** Stripe's test bank account number for an account that does not exist: the embedded bank returns it (R03). */
export const FAILING_TEST_ACCOUNT_NUMBER = '000111111116';
/** Where the embedded provider's Stripe Connect onboarding pages live (under /pay/, which the service worker leaves alone). */
export const CONNECT_ONBOARDING_PATH = '/pay/connect';

/** Whether an email asks the embedded provider to fail: it ends in '.invalid' or '@fail.example'. */
export function failsOnRequest(email: string): boolean {
  const e = email.trim().toLowerCase();
  return e.endsWith('.invalid') || e.endsWith('@fail.example');
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function randomId(prefix: string, length: number, alphabet = ALNUM): string {
  let s = prefix;
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}
const paypalId = (length = 13) => randomId('', length, UPPER);

/** Where the provider's events go: the app's own webhook routes (and the payouts module, for ACH). */
export interface EmbeddedPayoutDelivery {
  /** POSTs a PayPal-format event to /api/webhooks/paypal-payouts with these headers. */
  paypal?: (body: string, headers: Record<string, string>) => Promise<{ statusCode: number; body: string }>;
  /** POSTs a Stripe-format event to /api/webhooks/stripe-connect with this Stripe-Signature. */
  stripe?: (body: string, signature: string) => Promise<{ statusCode: number; body: string }>;
  /** Hands an ACH outcome to the payouts module (applyPayoutEvent). */
  ach?: (event: PayoutEvent) => Promise<unknown>;
}

export interface EmbeddedPayoutsOptions {
  publicUrl: string;
  /** How long one processing day lasts here (EMBEDDED_PAYOUT_SETTLE_MS). */
  settleMs: number;
  processingDays?: Partial<Record<PayoutMethodName, number>>;
  /** Signs its PayPal-format events. */
  paypalSecret: string;
  /** whsec_... : signs its Stripe-format events. */
  stripeSecret: string;
  deliver?: EmbeddedPayoutDelivery;
  /** The app's clock; the system's by default. */
  now?: () => Date;
  log?: (message: string, err?: unknown) => void;
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;
const CLAIM_MS = 60_000;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export type OnboardingOutcome = { kind: 'not_found' } | { kind: 'done'; account: ConnectAccountRow };

export class EmbeddedPayouts implements ConnectOnboarder {
  readonly kind = 'embedded' as const;
  #deliver: EmbeddedPayoutDelivery;
  readonly #now: () => Date;
  readonly #log: (message: string, err?: unknown) => void;
  readonly #providers = new Map<PayoutMethodName, PayoutProvider>();
  #queue: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | null = null;
  #stopping = false;
  #ticking = false;
  /** Verifies the PayPal-format events this provider signs. */
  readonly paypalVerifier: PayPalWebhookVerifier;

  constructor(
    private readonly db: Kysely<DB>,
    readonly options: EmbeddedPayoutsOptions,
  ) {
    this.#deliver = options.deliver ?? {};
    this.#now = options.now ?? (() => new Date());
    this.#log = options.log ?? (() => {});
    this.paypalVerifier = embeddedPayPalVerifier(options.paypalSecret, () => Date.now());
  }

  /** Where events go; set once the app exists. */
  setDelivery(deliver: EmbeddedPayoutDelivery): void {
    this.#deliver = deliver;
  }

  /** This provider as the PayoutProvider of one method. */
  provider(method: PayoutMethodName): PayoutProvider {
    let p = this.#providers.get(method);
    if (!p) {
      p = {
        method,
        kind: 'embedded',
        submit: (request) => {
          if (request.destination.method !== method) throw new TypeError(`payout ${request.payoutId} is not a ${method} payout`);
          return this.submit(request);
        },
      };
      this.#providers.set(method, p);
    }
    return p;
  }

  /** How long a method's payouts take here. */
  settleDelayMs(method: PayoutMethodName): number {
    return (this.options.processingDays?.[method] ?? EMBEDDED_PROCESSING_DAYS[method]) * this.options.settleMs;
  }

  /** A payout this provider took, by its idempotency key. */
  payout(idempotencyKey: string): Promise<EmbeddedPayoutRow | undefined> {
    return embeddedPayoutByKey(this.db, idempotencyKey);
  }

  /**
   * Takes a payout (or answers the one taken under the same idempotency key), to settle after
   * the method's delay. Refuses at once what its real service refuses at once.
   */
  async submit(request: PayoutRequest): Promise<PayoutSubmission> {
    const existing = await embeddedPayoutByKey(this.db, request.idempotencyKey);
    if (existing) return EmbeddedPayouts.#submission(existing);
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0 || request.currency !== 'USD') {
      return { providerReference: request.idempotencyKey, status: 'failed', failureReason: 'The amount must be a positive whole number of US cents.' };
    }
    const d = request.destination;
    let destination: string;
    let reference: string;
    let failure: string | null = null;
    switch (d.method) {
      case 'paypal':
        reference = paypalId();
        destination = d.paypalEmail.trim();
        if (failsOnRequest(destination)) failure = 'RECEIVER_UNREGISTERED: the receiver has no PayPal account (a test address that always fails).';
        break;
      case 'stripe_connect': {
        const account = await connectAccountById(this.db, d.accountId);
        if (!account) return { providerReference: request.idempotencyKey, status: 'failed', failureReason: `No such destination: '${d.accountId}'` };
        if (account.status !== 'active') {
          return {
            providerReference: request.idempotencyKey,
            status: 'failed',
            failureReason: 'Your destination account needs to have at least one of the following capabilities enabled: transfers.',
          };
        }
        reference = randomId('tr_test_', 24);
        destination = account.id;
        if (failsOnRequest(account.email)) failure = 'The transfer was reversed: the connected account cannot receive funds (a test address that always fails).';
        break;
      }
      case 'ach':
        try {
          nachaEntryFor(request, '000000000000001');
        } catch (err) {
          if (err instanceof NachaError) return { providerReference: request.idempotencyKey, status: 'failed', failureReason: err.message.replace(/^entry \d+: /, '') };
          throw err;
        }
        reference = randomId('achtr_test_', 20);
        destination = `${d.accountType} account ending ${d.accountNumber.slice(-4)}`;
        if (d.accountNumber === FAILING_TEST_ACCOUNT_NUMBER) failure = 'R03: No account / unable to locate account (the test account number that always fails).';
        break;
    }
    const { row } = await insertEmbeddedPayout(this.db, {
      reference,
      method: d.method,
      idempotency_key: request.idempotencyKey,
      payout_id: request.payoutId,
      user_id: request.userId,
      amount_cents: request.amountCents,
      destination,
      outcome: failure ? 'failed' : 'paid',
      failure_reason: failure,
      settle_at: new Date(this.#now().getTime() + this.settleDelayMs(d.method)),
    });
    return EmbeddedPayouts.#submission(row);
  }

  static #submission(row: EmbeddedPayoutRow): PayoutSubmission {
    // Settled or not, the outcome is told by the event; the submission says only where it stands.
    if (row.status === 'processing') return { providerReference: row.reference, status: 'processing' };
    return { providerReference: row.reference, status: row.status, ...(row.failure_reason ? { failureReason: row.failure_reason } : {}) };
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Settles every payout due at `now` (the provider's clock), each with its event(s) in one
   * transaction, then delivers what is owed. Answers how many payouts settled.
   */
  tick(now: Date = this.#now()): Promise<number> {
    return this.#exclusive(async () => {
      let settled = 0;
      while (!this.#stopping) {
        const eventIds = await this.db.transaction().execute(async (trx) => {
          const due = await lockDueEmbeddedPayout(trx, now);
          if (!due) return null;
          await settleEmbeddedPayout(trx, due.reference, due.outcome, now);
          return this.#recordOutcome(trx, due, now);
        });
        if (!eventIds) break;
        settled++;
        for (const id of eventIds) await this.deliverEvent(id);
      }
      await this.deliverDue();
      return settled;
    });
  }

  /** The events announcing a payout's outcome, in its real service's format. */
  async #recordOutcome(trx: Transaction<DB>, p: EmbeddedPayoutRow, at: Date): Promise<string[]> {
    const paid = p.outcome === 'paid';
    if (p.method === 'paypal') {
      const created = at.toISOString();
      const amount = { value: centsToDollars(Number(p.amount_cents)), currency: 'USD' };
      const batch = {
        id: `WH-${paypalId(17)}-${paypalId(17)}`,
        event_version: '1.0',
        create_time: created,
        resource_type: 'payouts',
        event_type: 'PAYMENT.PAYOUTSBATCH.SUCCESS',
        summary: 'Payouts batch completed successfully.',
        resource: {
          batch_header: {
            payout_batch_id: p.reference,
            batch_status: 'SUCCESS',
            time_created: p.created_at.toISOString(),
            time_completed: created,
            sender_batch_header: { sender_batch_id: p.idempotency_key },
            amount,
          },
        },
      };
      const item = {
        id: `WH-${paypalId(17)}-${paypalId(17)}`,
        event_version: '1.0',
        create_time: created,
        resource_type: 'payouts_item',
        event_type: paid ? 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED' : 'PAYMENT.PAYOUTS-ITEM.FAILED',
        summary: paid ? 'A payout item has succeeded' : 'A payout item has failed',
        resource: {
          payout_item_id: paypalId(),
          transaction_id: paid ? paypalId(17) : undefined,
          transaction_status: paid ? 'SUCCESS' : 'FAILED',
          payout_item_fee: { currency: 'USD', value: '0.00' },
          payout_batch_id: p.reference,
          sender_batch_id: p.idempotency_key,
          payout_item: { recipient_type: 'EMAIL', amount, receiver: p.destination, sender_item_id: p.payout_id },
          time_processed: created,
          ...(paid ? {} : { errors: { name: 'RECEIVER_UNREGISTERED', message: p.failure_reason ?? 'The payout item failed.' } }),
        },
      };
      await insertPayoutEvent(trx, { id: batch.id, format: 'paypal', type: batch.event_type, payload: JSON.stringify(batch) });
      await insertPayoutEvent(trx, { id: item.id, format: 'paypal', type: item.event_type, payload: JSON.stringify(item) });
      return [batch.id, item.id];
    }
    if (p.method === 'stripe_connect') {
      const amount = Number(p.amount_cents);
      const transfer = {
        id: p.reference,
        object: 'transfer',
        amount,
        amount_reversed: paid ? 0 : amount,
        currency: 'usd',
        created: unix(p.created_at),
        description: 'FrameMerch creator earnings',
        destination: p.destination,
        livemode: false,
        metadata: { payout_id: p.payout_id, idempotency_key: p.idempotency_key, user_id: p.user_id, ...(paid ? {} : { failure_reason: p.failure_reason ?? '' }) },
        reversed: !paid,
      };
      return [await this.#recordStripeEvent(trx, paid ? 'transfer.created' : 'transfer.reversed', transfer, at)];
    }
    const event = {
      eventId: `embedded-ach:${p.reference}:${p.outcome}`,
      providerReference: p.reference,
      idempotencyKey: p.idempotency_key,
      status: p.outcome,
      ...(paid ? {} : { failureReason: p.failure_reason ?? 'The bank returned the entry.' }),
      occurredAt: at.toISOString(),
    };
    await insertPayoutEvent(trx, { id: event.eventId, format: 'ach', type: `ach.${p.outcome}`, payload: JSON.stringify(event) });
    return [event.eventId];
  }

  async #recordStripeEvent(trx: Transaction<DB>, type: string, object: Record<string, unknown>, at: Date, account?: string): Promise<string> {
    const id = randomId('evt_test_', 32);
    const event = {
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: unix(at),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      ...(account ? { account } : {}),
      data: { object },
    };
    await insertPayoutEvent(trx, { id, format: 'stripe', type, payload: JSON.stringify(event) });
    return id;
  }

  /* ---- Stripe Connect onboarding ---- */

  /**
   * The user's Express-like account (made on the first call, the same one after) and a fresh
   * link to its onboarding page; the email given now becomes the account's.
   */
  async createOnboarding(userId: string, email: string, returnUrl: string, options: { refreshUrl?: string } = {}): Promise<ConnectOnboarding> {
    const account = await upsertConnectAccount(this.db, {
      id: randomId('acct_', 16),
      user_id: userId,
      email: email.trim(),
      link_token: randomBytes(24).toString('base64url'),
      return_url: returnUrl,
      refresh_url: options.refreshUrl ?? returnUrl,
    });
    return { accountId: account.id, url: `${this.options.publicUrl}${CONNECT_ONBOARDING_PATH}/${account.link_token}` };
  }

  connectAccountByToken(token: string): Promise<ConnectAccountRow | undefined> {
    return connectAccountByToken(this.db, token);
  }

  /**
   * The creator finished onboarding (active) or left details missing (restricted): the account
   * changes and account.updated is announced, as Stripe does for a connected account.
   */
  async finishOnboarding(token: string, decision: 'complete' | 'incomplete'): Promise<OnboardingOutcome> {
    const done = await this.db.transaction().execute(async (trx) => {
      const account = await lockConnectAccountByToken(trx, token);
      if (!account) return null;
      const status = decision === 'complete' ? 'active' : 'restricted';
      if (account.status === status) return { account, eventId: null };
      const updated = await setConnectAccountStatus(trx, account.id, status);
      const active = status === 'active';
      const eventId = await this.#recordStripeEvent(
        trx,
        'account.updated',
        {
          id: updated.id,
          object: 'account',
          type: 'express',
          email: updated.email,
          metadata: { user_id: updated.user_id },
          details_submitted: true,
          charges_enabled: active,
          payouts_enabled: active,
          capabilities: { transfers: active ? 'active' : 'inactive' },
          requirements: { currently_due: active ? [] : ['external_account'], past_due: active ? [] : ['external_account'], disabled_reason: active ? null : 'requirements.past_due' },
        },
        this.#now(),
        updated.id,
      );
      return { account: updated, eventId };
    });
    if (!done) return { kind: 'not_found' };
    if (done.eventId) await this.deliverEvent(done.eventId);
    return { kind: 'done', account: done.account };
  }

  /* ---- Delivery ---- */

  /** Delivers the events that are due (new ones and retries); answers how many were accepted. */
  deliverDue(limit = 50): Promise<number> {
    return this.#deliverClaimed(null, limit);
  }

  /** Delivers one event now, if it is still undelivered and no one else holds it. */
  async deliverEvent(id: string): Promise<boolean> {
    return (await this.#deliverClaimed(id, 1)) === 1;
  }

  async #send(format: 'paypal' | 'stripe' | 'ach', payload: Record<string, unknown>): Promise<string | null> {
    const body = JSON.stringify(payload);
    const httpError = (res: { statusCode: number; body: string }) => (res.statusCode >= 200 && res.statusCode < 300 ? null : `HTTP ${res.statusCode}: ${res.body.slice(0, 300)}`);
    if (format === 'paypal') {
      if (!this.#deliver.paypal) return 'nowhere to send PayPal events yet';
      return httpError(await this.#deliver.paypal(body, signEmbeddedPayPalWebhook(body, this.options.paypalSecret)));
    }
    if (format === 'stripe') {
      if (!this.#deliver.stripe) return 'nowhere to send Stripe events yet';
      return httpError(await this.#deliver.stripe(body, signWebhookBody(body, this.options.stripeSecret)));
    }
    if (!this.#deliver.ach) return 'nowhere to send ACH outcomes yet';
    const p = payload as unknown as Omit<PayoutEvent, 'occurredAt'> & { occurredAt: string };
    await this.#deliver.ach({ ...p, occurredAt: new Date(p.occurredAt) });
    return null;
  }

  async #deliverClaimed(onlyId: string | null, limit: number): Promise<number> {
    const claimed = await claimDuePayoutEvents(this.db, onlyId, limit, CLAIM_MS);
    let delivered = 0;
    for (const e of claimed) {
      const payload = (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload) as Record<string, unknown>;
      let error: string | null;
      try {
        error = await this.#send(e.format, payload);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      if (error === null) {
        delivered++;
        await markPayoutEventDelivered(this.db, e.id, e.attempts + 1);
      } else {
        const waitMs = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(e.attempts + 1, 20));
        this.#log(`payout event ${e.id} not delivered (attempt ${e.attempts + 1}); next in ${waitMs} ms: ${error}`);
        await schedulePayoutEventRetry(this.db, e.id, e.attempts + 1, error.slice(0, 1000), waitMs);
      }
    }
    return delivered;
  }

  /** Settles and delivers every `intervalMs` while the app serves. */
  start(intervalMs = Math.max(10, Math.min(5000, Math.floor(this.options.settleMs / 2)))): void {
    if (this.#timer) return;
    this.#stopping = false;
    this.#timer = setInterval(() => {
      if (this.#ticking) return;
      this.#ticking = true;
      this.tick()
        .catch((err) => this.#log('the embedded payout provider could not settle its payouts', err))
        .finally(() => (this.#ticking = false));
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#queue.catch(() => undefined);
  }
}
