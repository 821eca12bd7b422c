/**
 * The embedded payment provider's subscriptions: its stand-in for Stripe Billing, a working
 * system with state of its own (0009_embedded_subscriptions.sql) that sends the events Stripe
 * sends, in Stripe's shapes, through the provider's signed delivery with retries.
 *
 * - A checkout session in subscription mode is paid on the same hosted page as an order
 *   (/pay/{cs_...}). With a good card (4242..., or 4000 0000 0000 0341, which attaches) it makes
 *   a customer (cus_...) holding the card (brand, last 4 and expiry only), a subscription
 *   (sub_..., trialing until now + the trial's days) and its $0 first invoice, paid; and sends
 *   checkout.session.completed (payment_status no_payment_required), customer.subscription.created
 *   and invoice.paid (billing_reason subscription_create), in that order.
 * - Its clock is the app's (tick(now), and the provider's background loop): at a period's end a
 *   subscription is renewed for the next month (calendar months from the trial's end, the
 *   billing cycle anchor), and the saved card is charged:
 *     paid:   invoice.paid (subscription_cycle), customer.subscription.updated (active, next period);
 *     failed: invoice.payment_failed, customer.subscription.updated (past_due, next period); the
 *             payment is retried RETRY_DAYS (1, 3 and 5) days after the first attempt, each
 *             failure another invoice.payment_failed; a retry that pays makes it active again;
 *             when the last retry fails, invoice.payment_failed (next_payment_attempt null) and
 *             customer.subscription.deleted (canceled; cancellation_details.reason payment_failed).
 *   Stripe's default retry schedule is configurable (Smart Retries); this one is fixed.
 *   A subscription set to cancel at its period's end is not renewed: at the end it is
 *   deleted (customer.subscription.deleted, canceled).
 * - The manage page (/pay/manage/{token}, Stripe's customer portal's stand-in): cancel at the
 *   period's end, undo that (customer.subscription.updated each), or change the card (the next
 *   charge uses it; payment_method.attached and customer.updated).
 *
 * Every change is written with its events in one transaction; the events are delivered after
 * it commits. The events about one subscription carry increasing `created` seconds (a step in
 * the same second as the one before is stamped a second later), so that a receiver ordering
 * them by time sees them in the order they happened. Event times are the app's clock; the
 * signature's timestamp stays the system's (the receiver checks it against its own clock).
 */
import { EMBEDDED_MANAGE_PATH } from '../../../shared/schemas/subscriptions.ts';
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { DB } from '../../platform/db/schema.ts';
import { cardValidAt, checkEmail, checkSavedCard, CARD_MESSAGES, randomId, type CardFields, type SavedCard } from './cards.ts';
import type { CheckoutSession, SubscriptionCheckoutRequest, SubscriptionSessionInfo } from './provider.ts';
import {
  countSubscriptionDecline,
  dueSessionIds,
  findCustomer,
  findInvoice,
  findPortalSession,
  findSubscription,
  findSubscriptionSession,
  insertCustomer,
  insertInvoice,
  insertPortalSession,
  insertSubscription,
  insertSubscriptionSession,
  latestSubscriptionOf,
  lockCustomer,
  lockDueSubscription,
  lockSubscriptionSession,
  updateCustomer,
  updateInvoice,
  updateSubscription,
  updateSubscriptionSession,
  type CustomerRow,
  type InvoiceRow,
  type PortalSessionRow,
  type SubscriptionRow,
  type SubscriptionSessionRow,
} from './repository.ts';

export type { CustomerRow, InvoiceRow, PortalSessionRow, SubscriptionRow, SubscriptionSessionRow } from './repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** When a failed renewal is tried again: days after its first attempt (Stripe's schedule is configurable; this one is fixed). */
export const RETRY_DAYS = [1, 3, 5] as const;
/** How long a manage-page link stays good (system time), as a portal session's. */
export const PORTAL_SESSION_TTL_MS = 60 * 60 * 1000;
/** The manage page's path; its links are capability URLs: /pay/manage/{token}. */
/** Steps one tick takes at most (a clock moved years ahead still finishes). */
const MAX_STEPS = 10_000;

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const unixOrNull = (d: Date | null) => (d ? unix(d) : null);

/** `anchor` moved `months` calendar months on (UTC), the day kept or, in a shorter month, its last day. */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(anchor.getTime());
  d.setUTCFullYear(y, m, Math.min(anchor.getUTCDate(), lastDay));
  return d;
}

/** Period n >= 1 of a subscription: from anchor + (n - 1) months to anchor + n months. */
function periodOf(anchor: Date, cycle: number): { start: Date; end: Date } {
  return { start: addMonths(anchor, cycle - 1), end: addMonths(anchor, cycle) };
}

/** Writes an event (in the caller's transaction) and answers its id; `created` in seconds. */
export type RecordEvent = (
  trx: Transaction<DB>,
  type: string,
  object: Record<string, unknown>,
  created: number,
  previousAttributes?: Record<string, unknown>,
) => Promise<string>;

export interface EmbeddedBillingDeps {
  db: Kysely<DB>;
  publicUrl: string;
  /** The provider's clock (the app's). */
  now: () => Date;
  sessionTtlMs: number;
  record: RecordEvent;
  deliver: (eventId: string) => Promise<boolean>;
}

export type SubscribeOutcome =
  | { kind: 'subscribed'; session: SubscriptionSessionRow; eventIds: string[] }
  | { kind: 'already_complete'; session: SubscriptionSessionRow }
  | { kind: 'expired'; session: SubscriptionSessionRow; eventId?: string }
  | { kind: 'declined'; session: SubscriptionSessionRow; message: string }
  | { kind: 'invalid'; session: SubscriptionSessionRow; message: string }
  | { kind: 'not_found' };

export type ManageAction = { kind: 'cancel' } | { kind: 'resume' } | { kind: 'card'; card: CardFields };

export type ManageOutcome =
  | { kind: 'done'; portal: PortalSessionRow }
  | { kind: 'refused'; portal: PortalSessionRow; status: 400 | 402 | 409; message: string }
  | { kind: 'not_found' };

/** What the manage page shows: the plan, its state and the card (last 4 only). */
export interface ManageView {
  portal: PortalSessionRow;
  customer: CustomerRow;
  subscription: SubscriptionRow | null;
  /** The open invoice of a failed renewal, while it is being retried. */
  openInvoice: InvoiceRow | null;
}

/** A step's new events, stamped in order: each after the subscription's last, in seconds. */
class EventStamps {
  last: number;
  constructor(lastCreated: number) {
    this.last = lastCreated;
  }
  next(at: Date): number {
    this.last = Math.max(unix(at), this.last + 1);
    return this.last;
  }
}

export class EmbeddedBilling {
  constructor(private readonly deps: EmbeddedBillingDeps) {}

  get #db() {
    return this.deps.db;
  }

  /* ---- Checkout (subscription mode) ---- */

  async createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<CheckoutSession> {
    if (request.customerId && !(await findCustomer(this.#db, request.customerId))) throw new Error(`No such customer: '${request.customerId}'`);
    const id = randomId('cs_test_', 40);
    const fill = (url: string) => url.replaceAll('{CHECKOUT_SESSION_ID}', id);
    const session = await insertSubscriptionSession(this.#db, {
      id,
      idempotency_key: request.idempotencyKey,
      user_id: request.userId,
      customer_id: request.customerId,
      customer_email: request.customerEmail,
      product_name: request.productName,
      unit_amount: request.monthlyPriceCents,
      trial_days: request.trialDays,
      success_url: fill(request.successUrl),
      cancel_url: fill(request.cancelUrl),
      expires_at: new Date(Date.now() + this.deps.sessionTtlMs),
      created: this.deps.now(),
    });
    return { sessionId: session.id, url: `${this.deps.publicUrl}/pay/${session.id}` };
  }

  findSubscriptionSession(id: string): Promise<SubscriptionSessionRow | undefined> {
    return findSubscriptionSession(this.#db, id);
  }

  async retrieveSubscriptionSession(sessionId: string): Promise<SubscriptionSessionInfo | null> {
    const s = await findSubscriptionSession(this.#db, sessionId);
    if (!s) return null;
    return { sessionId: s.id, status: s.status, userId: s.user_id, subscriptionId: s.subscription_id, customerId: s.customer_id };
  }

  async retrieveSubscription(subscriptionId: string): Promise<Stripe.Subscription | null> {
    const sub = await findSubscription(this.#db, subscriptionId);
    if (!sub) return null;
    const customer = await findCustomer(this.#db, sub.customer_id);
    return subscriptionObject(sub, customer ?? null) as unknown as Stripe.Subscription;
  }

  /** The session object as Stripe's checkout.session.* events carry it in subscription mode. */
  sessionObject(s: SubscriptionSessionRow): Record<string, unknown> {
    const complete = s.status === 'complete';
    const dueNow = s.trial_days > 0 ? 0 : s.unit_amount;
    return {
      id: s.id,
      object: 'checkout.session',
      mode: 'subscription',
      livemode: false,
      status: s.status,
      // A free trial charges nothing at checkout.
      payment_status: complete ? (dueNow === 0 ? 'no_payment_required' : 'paid') : 'unpaid',
      amount_subtotal: dueNow,
      amount_total: dueNow,
      currency: s.currency,
      metadata: { user_id: s.user_id },
      client_reference_id: s.user_id,
      customer: s.customer_id,
      customer_email: s.customer_email,
      customer_details: s.customer_email ? { email: s.customer_email } : null,
      subscription: s.subscription_id,
      payment_intent: null,
      invoice: null,
      success_url: s.success_url,
      cancel_url: s.cancel_url,
      url: s.status === 'open' ? `${this.deps.publicUrl}/pay/${s.id}` : null,
      created: unix(s.created),
      expires_at: unix(s.expires_at),
    };
  }

  /**
   * The page's form for a subscription-mode session. A good card starts the subscription (with
   * its customer, first invoice and three events, in one transaction), then delivers the
   * events; a declined or mistyped card changes nothing but the count of declines.
   */
  async subscribe(sessionId: string, input: { email: string } & CardFields): Promise<SubscribeOutcome> {
    const at = this.deps.now();
    const emailRefusal = checkEmail(input.email);
    const checked = checkSavedCard(input, at);
    const outcome = await this.#db.transaction().execute(async (trx): Promise<SubscribeOutcome> => {
      const s = await lockSubscriptionSession(trx, sessionId);
      if (!s) return { kind: 'not_found' };
      if (s.status === 'complete') return { kind: 'already_complete', session: s };
      if (s.status === 'expired') return { kind: 'expired', session: s };
      if (s.expires_at.getTime() <= Date.now()) return { kind: 'expired', ...(await this.#expireInTrx(trx, s)) };
      const refusal = emailRefusal ?? ('status' in checked ? checked : null);
      if (refusal?.status === 400) return { kind: 'invalid', session: s, message: refusal.message };
      // With no trial the first month is charged now: a card whose charges fail is declined here.
      const chargesNow = s.trial_days === 0;
      const declined = refusal ?? ('card' in checked && chargesNow && checked.card.chargesFail ? { status: 402 as const, message: CARD_MESSAGES.declined } : null);
      if (declined) {
        await countSubscriptionDecline(trx, s.id);
        return { kind: 'declined', session: s, message: declined.message };
      }
      const card = (checked as { card: SavedCard }).card;
      const email = input.email.trim();
      return this.#startSubscription(trx, s, email, card, at);
    });
    if (outcome.kind === 'subscribed') for (const id of outcome.eventIds) await this.deps.deliver(id);
    else if (outcome.kind === 'expired' && outcome.eventId) await this.deps.deliver(outcome.eventId);
    return outcome;
  }

  async #startSubscription(trx: Transaction<DB>, s: SubscriptionSessionRow, email: string, card: SavedCard, at: Date): Promise<SubscribeOutcome> {
    const cardColumns = {
      payment_method_id: randomId('pm_', 24),
      card_brand: card.brand,
      card_last4: card.last4,
      card_exp_month: card.expMonth,
      card_exp_year: card.expYear,
      card_charges_fail: card.chargesFail,
    };
    const existing = s.customer_id ? await lockCustomer(trx, s.customer_id) : undefined;
    const customer = existing
      ? await updateCustomer(trx, existing.id, { ...cardColumns, email: existing.email ?? email })
      : await insertCustomer(trx, { id: randomId('cus_', 14), email, metadata: JSON.stringify({ user_id: s.user_id }), created: at, ...cardColumns });

    const trial = s.trial_days > 0;
    const trialEnd = new Date(at.getTime() + s.trial_days * DAY_MS);
    const anchor = trial ? trialEnd : at;
    const period = trial ? { start: at, end: trialEnd } : periodOf(anchor, 1);
    const subscriptionId = randomId('sub_', 24);
    const invoiceId = randomId('in_', 24);
    const sub = await insertSubscription(trx, {
      id: subscriptionId,
      customer_id: customer.id,
      status: trial ? 'trialing' : 'active',
      item_id: randomId('si_', 14),
      price_id: randomId('price_', 24),
      product_id: randomId('prod_', 14),
      product_name: s.product_name,
      unit_amount: s.unit_amount,
      currency: s.currency,
      metadata: JSON.stringify({ user_id: s.user_id }),
      billing_cycle_anchor: anchor,
      cycle: trial ? 0 : 1,
      trial_start: trial ? at : null,
      trial_end: trial ? trialEnd : null,
      current_period_start: period.start,
      current_period_end: period.end,
      latest_invoice_id: invoiceId,
      next_action_at: period.end,
      created: at,
    });
    const amount = trial ? 0 : s.unit_amount;
    const invoice = (await insertInvoice(trx, {
      id: invoiceId,
      subscription_id: sub.id,
      customer_id: customer.id,
      status: 'paid',
      billing_reason: 'subscription_create',
      amount_due: amount,
      amount_paid: amount,
      attempt_count: amount > 0 ? 1 : 0,
      // Stripe's first invoice has an instant for its period; its line, the period billed.
      period_start: at,
      period_end: at,
      line_period_start: period.start,
      line_period_end: period.end,
      paid_at: at,
      created: at,
    }))!;
    const session = await updateSubscriptionSession(trx, s.id, { status: 'complete', customer_id: customer.id, customer_email: email, subscription_id: sub.id });

    const stamps = new EventStamps(0);
    const eventIds = [
      await this.deps.record(trx, 'checkout.session.completed', this.sessionObject(session), stamps.next(at)),
      await this.deps.record(trx, 'customer.subscription.created', subscriptionObject(sub, customer), stamps.next(at)),
      await this.deps.record(trx, 'invoice.paid', invoiceObject(invoice, sub, customer), stamps.next(at)),
    ];
    await updateSubscription(trx, sub.id, { last_event_created: stamps.last });
    return { kind: 'subscribed', session, eventIds };
  }

  async #expireInTrx(trx: Transaction<DB>, s: SubscriptionSessionRow): Promise<{ session: SubscriptionSessionRow; eventId?: string }> {
    if (s.status !== 'open') return { session: s };
    const expired = await updateSubscriptionSession(trx, s.id, { status: 'expired' });
    return { session: expired, eventId: await this.deps.record(trx, 'checkout.session.expired', this.sessionObject(expired), unix(this.deps.now())) };
  }

  /** Expires the open subscription-mode sessions whose time is up, each with checkout.session.expired. */
  async expireDue(): Promise<number> {
    let expired = 0;
    for (const id of await dueSessionIds(this.#db, 'embedded_subscription_sessions', 100)) {
      const eventId = await this.#db.transaction().execute(async (trx) => {
        const s = await lockSubscriptionSession(trx, id);
        if (!s || s.status !== 'open') return null;
        return (await this.#expireInTrx(trx, s)).eventId ?? null;
      });
      if (eventId) {
        expired++;
        await this.deps.deliver(eventId);
      }
    }
    return expired;
  }

  /* ---- The clock ---- */

  /**
   * Runs every subscription up to `now` (the provider's clock): renewals, payment retries and
   * ends, each step with its events in one transaction, then delivered. A subscription whose
   * next step is still ahead is left alone, so a repeated tick does nothing. Answers the
   * number of steps taken.
   */
  async tick(now: Date = this.deps.now()): Promise<number> {
    let steps = 0;
    while (steps < MAX_STEPS) {
      const eventIds = await this.#db.transaction().execute(async (trx) => {
        const sub = await lockDueSubscription(trx, now);
        if (!sub) return null;
        return this.#step(trx, sub);
      });
      if (!eventIds) break;
      steps++;
      for (const id of eventIds) await this.deps.deliver(id);
    }
    return steps;
  }

  /** One due step of a subscription, at the time it fell due (its next_action_at). */
  async #step(trx: Transaction<DB>, sub: SubscriptionRow): Promise<string[]> {
    const at = sub.next_action_at!;
    const customer = (await lockCustomer(trx, sub.customer_id))!;
    const stamps = new EventStamps(Number(sub.last_event_created));
    if (sub.status === 'canceled') {
      await updateSubscription(trx, sub.id, { next_action_at: null });
      return [];
    }
    if (sub.cancel_at_period_end && at.getTime() >= sub.current_period_end.getTime()) {
      return this.#end(trx, sub, customer, stamps, sub.current_period_end, 'cancellation_requested');
    }
    const open = sub.latest_invoice_id ? await findInvoice(trx, sub.latest_invoice_id) : undefined;
    if (sub.status === 'past_due' && open && open.status === 'open' && open.next_payment_attempt && open.next_payment_attempt.getTime() <= at.getTime()) {
      return this.#retry(trx, sub, customer, open, stamps, at);
    }
    if (at.getTime() >= sub.current_period_end.getTime()) return this.#renew(trx, sub, customer, stamps);
    // Nothing due after all (the schedule moved): look again at the next due time.
    await updateSubscription(trx, sub.id, { next_action_at: nextActionAt(sub, open ?? null) });
    return [];
  }

  /** Charges the saved card at `at`: fails for the test card whose charges fail, no card, or a card expired by then. */
  #charge(customer: CustomerRow, at: Date): boolean {
    if (!customer.payment_method_id || customer.card_charges_fail) return false;
    if (customer.card_exp_month === null || customer.card_exp_year === null) return false;
    return cardValidAt({ month: customer.card_exp_month, year: customer.card_exp_year }, at);
  }

  async #renew(trx: Transaction<DB>, sub: SubscriptionRow, customer: CustomerRow, stamps: EventStamps): Promise<string[]> {
    const at = sub.current_period_end;
    const cycle = sub.cycle + 1;
    const period = periodOf(sub.billing_cycle_anchor, cycle);
    const paid = this.#charge(customer, at);
    const invoice = await insertInvoice(trx, {
      id: randomId('in_', 24),
      subscription_id: sub.id,
      customer_id: customer.id,
      status: paid ? 'paid' : 'open',
      billing_reason: 'subscription_cycle',
      amount_due: sub.unit_amount,
      amount_paid: paid ? sub.unit_amount : 0,
      attempt_count: 1,
      next_payment_attempt: paid ? null : new Date(at.getTime() + RETRY_DAYS[0] * DAY_MS),
      // Stripe's renewal invoice's own period is the one that just ended; its line bills the next.
      period_start: sub.current_period_start,
      period_end: sub.current_period_end,
      line_period_start: period.start,
      line_period_end: period.end,
      paid_at: paid ? at : null,
      created: at,
    });
    if (!invoice) {
      // This period was billed already (cannot happen while the row is locked; never bill twice).
      await updateSubscription(trx, sub.id, { cycle, current_period_start: period.start, current_period_end: period.end, next_action_at: period.end });
      return [];
    }
    const previous = {
      status: sub.status,
      current_period_start: unix(sub.current_period_start),
      current_period_end: unix(sub.current_period_end),
      latest_invoice: sub.latest_invoice_id,
    };
    const status = paid ? 'active' : 'past_due';
    const renewed = await updateSubscription(trx, sub.id, {
      status,
      cycle,
      current_period_start: period.start,
      current_period_end: period.end,
      latest_invoice_id: invoice.id,
      next_action_at: nextActionAt({ ...sub, status, current_period_end: period.end }, invoice),
    });
    const ids = [
      await this.deps.record(trx, paid ? 'invoice.paid' : 'invoice.payment_failed', invoiceObject(invoice, renewed, customer), stamps.next(at)),
      await this.deps.record(trx, 'customer.subscription.updated', subscriptionObject(renewed, customer), stamps.next(at), previous),
    ];
    await updateSubscription(trx, sub.id, { last_event_created: stamps.last });
    return ids;
  }

  async #retry(trx: Transaction<DB>, sub: SubscriptionRow, customer: CustomerRow, open: InvoiceRow, stamps: EventStamps, at: Date): Promise<string[]> {
    const attempt = open.attempt_count + 1;
    if (this.#charge(customer, at)) {
      const invoice = await updateInvoice(trx, open.id, { status: 'paid', amount_paid: open.amount_due, attempt_count: attempt, next_payment_attempt: null, paid_at: at });
      const active = await updateSubscription(trx, sub.id, { status: 'active', next_action_at: nextActionAt({ ...sub, status: 'active' }, invoice) });
      const ids = [
        await this.deps.record(trx, 'invoice.paid', invoiceObject(invoice, active, customer), stamps.next(at)),
        await this.deps.record(trx, 'customer.subscription.updated', subscriptionObject(active, customer), stamps.next(at), { status: sub.status }),
      ];
      await updateSubscription(trx, sub.id, { last_event_created: stamps.last });
      return ids;
    }
    const retryDays = RETRY_DAYS[attempt - 1];
    const nextAttempt = retryDays === undefined ? null : new Date(open.created.getTime() + retryDays * DAY_MS);
    const invoice = await updateInvoice(trx, open.id, { attempt_count: attempt, next_payment_attempt: nextAttempt });
    const failed = await this.deps.record(trx, 'invoice.payment_failed', invoiceObject(invoice, sub, customer), stamps.next(at));
    if (nextAttempt) {
      await updateSubscription(trx, sub.id, { next_action_at: nextActionAt(sub, invoice), last_event_created: stamps.last });
      return [failed];
    }
    // The last retry failed: the subscription is cancelled (Stripe's "cancel the subscription" setting).
    return [failed, ...(await this.#end(trx, sub, customer, stamps, at, 'payment_failed'))];
  }

  async #end(trx: Transaction<DB>, sub: SubscriptionRow, customer: CustomerRow, stamps: EventStamps, at: Date, reason: 'cancellation_requested' | 'payment_failed'): Promise<string[]> {
    const ended = await updateSubscription(trx, sub.id, {
      status: 'canceled',
      ended_at: at,
      // A cancellation at the period's end keeps the time it was asked for.
      canceled_at: sub.canceled_at ?? at,
      cancellation_reason: reason,
      next_action_at: null,
    });
    const id = await this.deps.record(trx, 'customer.subscription.deleted', subscriptionObject(ended, customer), stamps.next(at));
    await updateSubscription(trx, sub.id, { last_event_created: stamps.last });
    return [id];
  }

  /* ---- The manage page (the customer portal's stand-in) ---- */

  async manageSubscriptionUrl(customerId: string, returnUrl: string): Promise<string> {
    if (!(await findCustomer(this.#db, customerId))) throw new Error(`No such customer: '${customerId}'`);
    const token = randomBytes(24).toString('base64url');
    await insertPortalSession(this.#db, {
      token,
      id: randomId('bps_', 24),
      customer_id: customerId,
      return_url: returnUrl,
      expires_at: new Date(Date.now() + PORTAL_SESSION_TTL_MS),
    });
    return `${this.deps.publicUrl}${EMBEDDED_MANAGE_PATH}/${token}`;
  }

  async manageView(token: string): Promise<ManageView | null> {
    const portal = await findPortalSession(this.#db, token);
    if (!portal) return null;
    const customer = await findCustomer(this.#db, portal.customer_id);
    if (!customer) return null;
    const subscription = (await latestSubscriptionOf(this.#db, customer.id)) ?? null;
    const latest = subscription?.latest_invoice_id ? await findInvoice(this.#db, subscription.latest_invoice_id) : undefined;
    const openInvoice = latest && latest.status === 'open' && subscription?.status === 'past_due' ? latest : null;
    return { portal, customer, subscription, openInvoice };
  }

  /**
   * The manage page's form: cancel at the period's end, undo that, or change the card. A
   * request that changes nothing (cancelling twice) sends nothing.
   */
  async manage(token: string, action: ManageAction): Promise<ManageOutcome> {
    const at = this.deps.now();
    const checked = action.kind === 'card' ? checkSavedCard(action.card, at) : null;
    const done = await this.#db.transaction().execute(async (trx): Promise<ManageOutcome & { eventIds?: string[] }> => {
      const portal = await findPortalSession(trx, token);
      if (!portal) return { kind: 'not_found' };
      const customer = await lockCustomer(trx, portal.customer_id);
      if (!customer) return { kind: 'not_found' };
      if (action.kind === 'card') {
        if (checked && 'status' in checked) return { kind: 'refused', portal, status: checked.status, message: checked.message };
        const card = (checked as { card: SavedCard }).card;
        const pm = randomId('pm_', 24);
        const updated = await updateCustomer(trx, customer.id, {
          payment_method_id: pm,
          card_brand: card.brand,
          card_last4: card.last4,
          card_exp_month: card.expMonth,
          card_exp_year: card.expYear,
          card_charges_fail: card.chargesFail,
        });
        const sub = await latestSubscriptionOf(trx, customer.id, true);
        const stamps = new EventStamps(Number(sub?.last_event_created ?? 0));
        const eventIds = [
          await this.deps.record(trx, 'payment_method.attached', paymentMethodObject(updated), stamps.next(at)),
          await this.deps.record(trx, 'customer.updated', customerObject(updated), stamps.next(at), {
            invoice_settings: { default_payment_method: customer.payment_method_id },
          }),
        ];
        if (sub) await updateSubscription(trx, sub.id, { last_event_created: stamps.last });
        return { kind: 'done', portal, eventIds };
      }
      const sub = await latestSubscriptionOf(trx, customer.id, true);
      if (!sub || sub.status === 'canceled') return { kind: 'refused', portal, status: 409, message: 'This subscription has ended.' };
      const cancel = action.kind === 'cancel';
      if (sub.cancel_at_period_end === cancel) return { kind: 'done', portal, eventIds: [] };
      const stamps = new EventStamps(Number(sub.last_event_created));
      const changed = await updateSubscription(trx, sub.id, { cancel_at_period_end: cancel, canceled_at: cancel ? at : null });
      const previous = { cancel_at_period_end: sub.cancel_at_period_end, cancel_at: sub.cancel_at_period_end ? unix(sub.current_period_end) : null, canceled_at: unixOrNull(sub.canceled_at) };
      const id = await this.deps.record(trx, 'customer.subscription.updated', subscriptionObject(changed, customer), stamps.next(at), previous);
      const open = changed.latest_invoice_id ? await findInvoice(trx, changed.latest_invoice_id) : undefined;
      await updateSubscription(trx, sub.id, { last_event_created: stamps.last, next_action_at: nextActionAt(changed, open ?? null) });
      return { kind: 'done', portal, eventIds: [id] };
    });
    for (const id of done.eventIds ?? []) await this.deps.deliver(id);
    if (done.kind === 'done') return { kind: 'done', portal: done.portal };
    return done;
  }
}

/** When the clock must next look at a subscription: a pending retry (or the period's end, if sooner), else the period's end. */
function nextActionAt(sub: Pick<SubscriptionRow, 'status' | 'current_period_end' | 'cancel_at_period_end'>, latest: InvoiceRow | null): Date | null {
  if (sub.status === 'canceled') return null;
  const end = sub.current_period_end;
  const retry = sub.status === 'past_due' && latest?.status === 'open' ? latest.next_payment_attempt : null;
  if (!retry) return end;
  return retry.getTime() < end.getTime() ? retry : end;
}

function priceObject(sub: SubscriptionRow): Record<string, unknown> {
  return {
    id: sub.price_id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: unix(sub.created),
    currency: sub.currency,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: sub.product_id,
    recurring: { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' },
    tax_behavior: 'unspecified',
    type: 'recurring',
    unit_amount: sub.unit_amount,
    unit_amount_decimal: String(sub.unit_amount),
  };
}

/** A subscription in Stripe's shape (the period both on the object, as older API versions have it, and on its item, as newer ones do). */
export function subscriptionObject(sub: SubscriptionRow, customer: CustomerRow | null): Record<string, unknown> {
  const periodStart = unix(sub.current_period_start);
  const periodEnd = unix(sub.current_period_end);
  return {
    id: sub.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: unix(sub.billing_cycle_anchor),
    billing_cycle_anchor_config: null,
    cancel_at: sub.cancel_at_period_end ? periodEnd : null,
    cancel_at_period_end: sub.cancel_at_period_end,
    canceled_at: unixOrNull(sub.canceled_at),
    cancellation_details: { comment: null, feedback: null, reason: sub.cancel_at_period_end || sub.status === 'canceled' ? (sub.cancellation_reason ?? 'cancellation_requested') : null },
    collection_method: 'charge_automatically',
    created: unix(sub.created),
    currency: sub.currency,
    current_period_start: periodStart,
    current_period_end: periodEnd,
    customer: sub.customer_id,
    days_until_due: null,
    default_payment_method: customer?.payment_method_id ?? null,
    default_source: null,
    description: null,
    discounts: [],
    ended_at: unixOrNull(sub.ended_at),
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: {
      object: 'list',
      data: [
        {
          id: sub.item_id,
          object: 'subscription_item',
          created: unix(sub.created),
          current_period_start: periodStart,
          current_period_end: periodEnd,
          discounts: [],
          metadata: {},
          price: priceObject(sub),
          quantity: 1,
          subscription: sub.id,
          tax_rates: [],
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${sub.id}`,
    },
    latest_invoice: sub.latest_invoice_id,
    livemode: false,
    metadata: sub.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: unix(sub.created),
    status: sub.status,
    test_clock: null,
    transfer_data: null,
    trial_end: unixOrNull(sub.trial_end),
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: unixOrNull(sub.trial_start),
  };
}

/** An invoice in Stripe's shape: the subscription both where older API versions put it and under parent, as newer ones do. */
export function invoiceObject(inv: InvoiceRow, sub: SubscriptionRow, customer: CustomerRow | null): Record<string, unknown> {
  const trialLine = inv.billing_reason === 'subscription_create' && inv.amount_due === 0;
  const price = (sub.unit_amount / 100).toFixed(2);
  return {
    id: inv.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'FrameMerch',
    amount_due: inv.amount_due,
    amount_overpaid: 0,
    amount_paid: inv.amount_paid,
    amount_remaining: inv.amount_due - inv.amount_paid,
    amount_shipping: 0,
    attempt_count: inv.attempt_count,
    attempted: inv.attempt_count > 0 || inv.status === 'paid',
    auto_advance: inv.status === 'open',
    billing_reason: inv.billing_reason,
    collection_method: 'charge_automatically',
    created: unix(inv.created),
    currency: inv.currency,
    customer: inv.customer_id,
    customer_email: customer?.email ?? null,
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: unix(inv.created),
    ending_balance: 0,
    hosted_invoice_url: null,
    invoice_pdf: null,
    lines: {
      object: 'list',
      data: [
        {
          id: `il_${inv.id.slice(3)}`,
          object: 'line_item',
          amount: inv.amount_due,
          currency: inv.currency,
          description: trialLine ? `Trial period for ${sub.product_name}` : `1 × ${sub.product_name} (at $${price} / month)`,
          discount_amounts: [],
          discountable: true,
          discounts: [],
          invoice: inv.id,
          livemode: false,
          metadata: sub.metadata,
          parent: {
            type: 'subscription_item_details',
            invoice_item_details: null,
            subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: sub.id, subscription_item: sub.item_id },
          },
          period: { start: unix(inv.line_period_start), end: unix(inv.line_period_end) },
          pricing: { type: 'price_details', price_details: { price: sub.price_id, product: sub.product_id }, unit_amount_decimal: String(sub.unit_amount) },
          quantity: 1,
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/invoices/${inv.id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: unixOrNull(inv.next_payment_attempt),
    number: null,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: sub.metadata, subscription: sub.id } },
    period_end: unix(inv.period_end),
    period_start: unix(inv.period_start),
    starting_balance: 0,
    status: inv.status,
    status_transitions: { finalized_at: unix(inv.created), marked_uncollectible_at: null, paid_at: unixOrNull(inv.paid_at), voided_at: null },
    // Older API versions' place for it.
    subscription: sub.id,
    subtotal: inv.amount_due,
    total: inv.amount_due,
    webhooks_delivered_at: null,
  };
}

function paymentMethodObject(c: CustomerRow): Record<string, unknown> {
  return {
    id: c.payment_method_id,
    object: 'payment_method',
    type: 'card',
    customer: c.id,
    livemode: false,
    card: { brand: c.card_brand, last4: c.card_last4, exp_month: c.card_exp_month, exp_year: c.card_exp_year, funding: 'credit', country: 'US' },
    billing_details: { email: c.email },
    metadata: {},
    created: unix(c.updated_at),
  };
}

function customerObject(c: CustomerRow): Record<string, unknown> {
  return {
    id: c.id,
    object: 'customer',
    email: c.email,
    livemode: false,
    metadata: c.metadata,
    invoice_settings: { default_payment_method: c.payment_method_id, custom_fields: null, footer: null, rendering_options: null },
    created: unix(c.created),
  };
}
