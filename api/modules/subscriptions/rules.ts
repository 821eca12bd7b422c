/**
 * A creator's Pro subscription as pure rules over Stripe's events (Stripe Checkout in
 * subscription mode, or the embedded payment provider, which sends the same Stripe-format
 * events). The service (not here) verifies each event, records its id so it takes effect once,
 * reads the user's user_subscriptions row as a SubscriptionState (FREE_STATE when there is
 * none), applies the event with applySubscriptionEvent and writes the row back when it changed.
 * Nothing else moves the row.
 *
 * Stripe does not deliver events in order, and retries them for days; so the row is a
 * last-writer-wins register over the snapshots the events carry, ordered by what the events
 * say, never by when they arrive. Once all of a subscription's events have arrived, in any
 * order and with any repetitions, the row is the subscription as Stripe reports it (its last
 * snapshot), watermark included. Before that, the state after any set of one subscription's
 * objects and checkout links is also the same in every order; an invoice hint (below) fills
 * the trial end from what came before it, until its period's subscription object arrives.
 *
 * The snapshots:
 * - customer.subscription.* (created, updated, deleted, paused, resumed, trial_will_end, ...):
 *   the whole subscription object. A deleted event's subscription is ended whatever its status
 *   field says. The current period is read from the object or, in newer API versions, from
 *   its first item (items.data[0].current_period_start/end).
 * - checkout.session.completed / async_payment_succeeded (mode subscription): with the
 *   subscription expanded, that object, as above. With only its id, a provisional "link":
 *   the subscription's and customer's ids and a guessed status (payment_status paid: active;
 *   no_payment_required: trialing, the free trial; unpaid: incomplete), so the creator has Pro
 *   the moment they are back from the checkout. A link only ever fills a state that holds
 *   nothing from events yet, and everything else about the subscription outranks it.
 * - invoice.paid / invoice.payment_succeeded / invoice.payment_failed for a subscription's
 *   renewal (billing_reason subscription_cycle) or first invoice (subscription_create): a
 *   hint for the period the invoice bills (its subscription line's period, not a proration's;
 *   invoice.period_start/end only when it has no such line, as Stripe's invoice period looks
 *   one period back): paid: active; failed: past_due (incomplete for the first invoice). A
 *   hint lets a renewal show before its customer.subscription.updated arrives; it never
 *   overrides a subscription object of the same period. It does not carry the trial's end:
 *   it keeps the state's (or takes an older subscription object's that arrives after it).
 *   The trial's $0 first invoice and invoices for anything else say nothing.
 * Every other event says nothing about the subscription (null snapshot, no change).
 *
 * THE ORDER. Among the snapshots of one subscription, the one with the greatest key wins;
 * the key compares, in this order:
 *   1. terminal: an ended subscription (canceled, incomplete_expired, or any deleted event)
 *      outranks every live snapshot, whatever their times. Stripe never revives an ended
 *      subscription, so no older event can undo an end, and an end always beats a live
 *      snapshot of the same or an earlier second.
 *   2. the current period's start (seconds): it only moves forward in a subscription's life,
 *      so a snapshot of a later period is later whatever the clock says; and a renewal
 *      invoice paid or failed for a later period beats anything about an earlier one.
 *   3. the source: a subscription object (2) > an invoice hint (1) > a checkout link (0):
 *      within one period the subscription object is the authority.
 *   4. the event's created time (seconds).
 *   5. within the same second (and period and source), the stage of the status, the way a
 *      period's life only goes: trialing / incomplete (0) < active (1) < past_due (2) <
 *      unpaid / paused (3) < canceled / incomplete_expired (4). So a renewal that is
 *      active and then fails in the same second ends past_due; a recovery (past_due -> active)
 *      in the same second as the failure before it cannot be told apart and loses; Stripe's
 *      retries are hours apart, and the next snapshot corrects it anyway.
 *   6. then cancel_at_period_end set (1) over not set (0): a cancel and an undo in the
 *      same second cannot be told apart either; whichever is wrong is corrected at the
 *      period's end (the deleted event, or the renewal).
 *   7. then the event id, so that two different events never tie and the winner does not
 *      depend on arrival even then. The same event twice ties with itself: no change.
 * Stripe's own data cannot order two snapshots of one second beyond this (it has no
 * sequence number); 5 and 6 are this rule's choice, and the property test's model of Stripe
 * keeps to it (a step that would go against it in the same second happens a second later).
 *
 * Between subscriptions (a creator who cancels and subscribes again): the subscription
 * created later (its object's `created`, then the greater id) is the one the row follows;
 * another subscription's events displace it only when they carry the subscription object
 * and it is newer (or the row's subscription's age is not known yet: it came from a hint or
 * a link). Invoice hints and checkout links about another subscription change nothing (their
 * own subscription's objects will). This assumes one live subscription per creator at a
 * time, which the checkout route is to enforce (409 while one is live): of two live at once,
 * the row follows the newer.
 *
 * The row's status column has no room for unpaid, paused or incomplete_expired (see
 * 0001_core.sql): unpaid and paused are stored as incomplete (payment needed, no Pro),
 * incomplete_expired as canceled; stripeStatus keeps Stripe's own word.
 */
import type { SubscriptionTier } from '../../../shared/subscriptions.ts';

/** Stripe's subscription statuses. */
export type StripeSubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete' | 'incomplete_expired' | 'paused';

/** What user_subscriptions.status may hold (its CHECK in 0001_core.sql). */
export type SubscriptionRowStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'incomplete' | 'pending_approval';

const STRIPE_STATUSES: ReadonlySet<string> = new Set<StripeSubscriptionStatus>(['trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused']);

const ROW_STATUS: Readonly<Record<StripeSubscriptionStatus, SubscriptionRowStatus>> = {
  trialing: 'trialing',
  active: 'active',
  past_due: 'past_due',
  canceled: 'canceled',
  unpaid: 'incomplete',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
  paused: 'incomplete',
};

/** Pro while trialing, active, or past_due (Stripe is still retrying the payment). */
const PRO_STATUSES: ReadonlySet<StripeSubscriptionStatus> = new Set(['trialing', 'active', 'past_due']);

/** The statuses Stripe never leaves. */
const TERMINAL_STATUSES: ReadonlySet<StripeSubscriptionStatus> = new Set(['canceled', 'incomplete_expired']);

/** Key part 5: how far along a period's life a status is. */
const STAGE: Readonly<Record<StripeSubscriptionStatus, number>> = {
  trialing: 0,
  incomplete: 0,
  active: 1,
  past_due: 2,
  unpaid: 3,
  paused: 3,
  canceled: 4,
  incomplete_expired: 4,
};

export type SnapshotSource = 'checkout' | 'invoice' | 'subscription';

/** Key part 3. */
const SOURCE_RANK: Readonly<Record<SnapshotSource, number>> = { checkout: 0, invoice: 1, subscription: 2 };

/** The ordering watermark a row keeps beside its state. */
export interface SubscriptionVersion {
  /**
   * encodeOrderKey of the snapshot the state was made from. Its string order is the key's
   * order, so the row can hold it in one text column and an UPDATE ... WHERE event_order <
   * $new (COLLATE "C") guards a concurrent writer.
   */
  order: string;
  /** When the subscription itself was created (seconds), once an event has told: orders one subscription against another. */
  subscriptionCreated: number | null;
}

/** A user's subscription, as their user_subscriptions row holds it. */
export interface SubscriptionState {
  tier: SubscriptionTier;
  status: SubscriptionRowStatus;
  /** Stripe's own status word; null when no event has set the row. */
  stripeStatus: StripeSubscriptionStatus | null;
  trialEnd: Date | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** Set to end at the period's end: still Pro until Stripe ends it then (the deleted event). */
  cancelAtPeriodEnd: boolean;
  stripeSubscriptionId: string | null;
  stripeCustomerId: string | null;
  /** Null when no event has set the row: then any snapshot applies. */
  version: SubscriptionVersion | null;
}

/** No row: the free tier, in good standing (the column defaults: tier free, status active). */
export const FREE_STATE: Readonly<SubscriptionState> = Object.freeze({
  tier: 'free',
  status: 'active',
  stripeStatus: null,
  trialEnd: null,
  currentPeriodStart: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  stripeSubscriptionId: null,
  stripeCustomerId: null,
  version: null,
});

/** The fields of an event these rules read; a verified PaymentEvent (Stripe.Event) is one. */
export interface SubscriptionEventInput {
  id: string;
  type: string;
  /** Seconds since the epoch, when Stripe made the event (and the snapshot it carries). */
  created: number;
  data: { object: unknown };
}

/** The parts of a snapshot's place in the order (see the file's head, THE ORDER). */
export interface OrderKey {
  terminal: boolean;
  /** Seconds; 0 when the snapshot does not know the period. */
  periodStart: number;
  source: SnapshotSource;
  /** The event's created time, seconds. */
  at: number;
  stage: number;
  cancelAtPeriodEnd: boolean;
  eventId: string;
}

/** What one event says about a subscription. */
export interface SubscriptionSnapshot {
  source: SnapshotSource;
  eventId: string;
  eventType: string;
  subscriptionId: string;
  customerId: string | null;
  /** The user it is for (metadata.user_id, or the checkout's client_reference_id), when the event names one. */
  userId: string | null;
  stripeStatus: StripeSubscriptionStatus;
  /** Invoice hints and checkout links do not carry it (null); a hint keeps the state's. */
  trialEnd: Date | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  /** The subscription object's `created` (seconds); null when the event does not carry the object. */
  subscriptionCreated: number | null;
  order: OrderKey;
}

export interface AppliedSubscriptionEvent {
  state: SubscriptionState;
  /** The state (its watermark included) differs: the row is to be written. */
  changed: boolean;
  snapshot: SubscriptionSnapshot | null;
}

/** Pro is kept this long past a period's end that was not renewed (tierAt). */
export const PRO_GRACE_MS = 3 * 24 * 60 * 60 * 1000;

const KEY_DIGITS = 12;
const KEY_MAX = 10 ** KEY_DIGITS - 1;

function pad(seconds: number): string {
  return String(Math.min(Math.max(Math.trunc(seconds), 0), KEY_MAX)).padStart(KEY_DIGITS, '0');
}

/** The key as a string whose plain (code unit, or COLLATE "C") order is the key's order. */
export function encodeOrderKey(key: OrderKey): string {
  return [
    key.terminal ? '1' : '0',
    pad(key.periodStart),
    String(SOURCE_RANK[key.source]),
    pad(key.at),
    String(key.stage),
    key.cancelAtPeriodEnd ? '1' : '0',
    key.eventId,
  ].join(':');
}

/** Negative, zero or positive as a is before, the same as, or after b in the order. */
export function compareOrderKeys(a: OrderKey, b: OrderKey): number {
  const x = encodeOrderKey(a);
  const y = encodeOrderKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isTerminalStatus(status: StripeSubscriptionStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export function tierForStatus(status: StripeSubscriptionStatus | null): SubscriptionTier {
  return status !== null && PRO_STATUSES.has(status) ? 'pro' : 'free';
}

export function rowStatusFor(status: StripeSubscriptionStatus): SubscriptionRowStatus {
  return ROW_STATUS[status];
}

type Obj = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

function list(v: unknown): Obj[] {
  return Array.isArray(obj(v).data) ? (obj(v).data as unknown[]).map(obj) : [];
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** A field that Stripe sends either as an id or as the expanded object. */
function idOf(v: unknown): string | null {
  return str(v) ?? str(obj(v).id);
}

function seconds(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

function dateOf(s: number | null): Date | null {
  return s === null ? null : new Date(s * 1000);
}

function userIdOf(...candidates: unknown[]): string | null {
  for (const c of candidates) {
    const s = str(c);
    if (s && UUID.test(s)) return s.toLowerCase();
  }
  return null;
}

function stripeStatusOf(v: unknown): StripeSubscriptionStatus | null {
  return typeof v === 'string' && STRIPE_STATUSES.has(v) ? (v as StripeSubscriptionStatus) : null;
}

interface SnapshotFields {
  source: SnapshotSource;
  subscriptionId: string;
  customerId: string | null;
  userId: string | null;
  stripeStatus: StripeSubscriptionStatus;
  trialEnd: number | null;
  periodStart: number | null;
  periodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
  subscriptionCreated: number | null;
}

function snapshot(event: SubscriptionEventInput, at: number, f: SnapshotFields): SubscriptionSnapshot {
  const periodEnd = f.periodEnd !== null && f.periodStart !== null && f.periodEnd < f.periodStart ? null : f.periodEnd;
  return {
    source: f.source,
    eventId: event.id,
    eventType: event.type,
    subscriptionId: f.subscriptionId,
    customerId: f.customerId,
    userId: f.userId,
    stripeStatus: f.stripeStatus,
    trialEnd: dateOf(f.trialEnd),
    currentPeriodStart: dateOf(f.periodStart),
    currentPeriodEnd: dateOf(periodEnd),
    cancelAtPeriodEnd: f.cancelAtPeriodEnd,
    canceledAt: dateOf(f.canceledAt),
    subscriptionCreated: f.subscriptionCreated,
    order: {
      terminal: TERMINAL_STATUSES.has(f.stripeStatus),
      periodStart: f.periodStart ?? 0,
      source: f.source,
      at,
      stage: STAGE[f.stripeStatus],
      cancelAtPeriodEnd: f.cancelAtPeriodEnd,
      eventId: event.id,
    },
  };
}

/** A subscription object, as customer.subscription.* events (and an expanded checkout session) carry it. */
function fromSubscriptionObject(
  event: SubscriptionEventInput,
  at: number,
  sub: Obj,
  ended: boolean,
  fallback: { customerId?: string | null; userId?: string | null } = {},
): SubscriptionSnapshot | null {
  const subscriptionId = str(sub.id);
  const status = stripeStatusOf(sub.status);
  if (!subscriptionId || !status) return null;
  const item = list(sub.items)[0] ?? {};
  const periodStart = seconds(sub.current_period_start) ?? seconds(item.current_period_start);
  const periodEnd = seconds(sub.current_period_end) ?? seconds(item.current_period_end);
  const cancelAt = seconds(sub.cancel_at);
  return snapshot(event, at, {
    source: 'subscription',
    subscriptionId,
    customerId: idOf(sub.customer) ?? fallback.customerId ?? null,
    userId: userIdOf(obj(sub.metadata).user_id) ?? fallback.userId ?? null,
    stripeStatus: ended && !TERMINAL_STATUSES.has(status) ? 'canceled' : status,
    trialEnd: seconds(sub.trial_end),
    periodStart,
    periodEnd,
    // Newer API versions may say it with cancel_at at the period's end instead.
    cancelAtPeriodEnd: sub.cancel_at_period_end === true || (cancelAt !== null && periodEnd !== null && cancelAt <= periodEnd),
    canceledAt: seconds(sub.canceled_at),
    subscriptionCreated: seconds(sub.created) ?? seconds(sub.start_date),
  });
}

function fromCheckoutSession(event: SubscriptionEventInput, at: number, session: Obj): SubscriptionSnapshot | null {
  if (session.mode !== 'subscription') return null;
  if (session.status !== undefined && session.status !== 'complete') return null;
  const customerId = idOf(session.customer);
  const userId = userIdOf(obj(session.metadata).user_id, session.client_reference_id);
  if (typeof session.subscription === 'object' && session.subscription !== null) {
    return fromSubscriptionObject(event, at, obj(session.subscription), false, { customerId, userId });
  }
  const subscriptionId = str(session.subscription);
  const guessed: StripeSubscriptionStatus | null =
    session.payment_status === 'paid' ? 'active' : session.payment_status === 'no_payment_required' ? 'trialing' : session.payment_status === 'unpaid' ? 'incomplete' : null;
  if (!subscriptionId || !guessed) return null;
  return snapshot(event, at, {
    source: 'checkout',
    subscriptionId,
    customerId,
    userId,
    stripeStatus: guessed,
    trialEnd: null,
    periodStart: null,
    periodEnd: null,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    subscriptionCreated: null,
  });
}

/** The invoice's line for the subscription's own price (not a proration), in either API version's shape. */
function subscriptionLine(invoice: Obj): Obj | undefined {
  return list(invoice.lines).find((line) => {
    if (line.type === 'subscription') return line.proration !== true;
    const parent = obj(line.parent);
    return parent.type === 'subscription_item_details' && obj(parent.subscription_item_details).proration !== true;
  });
}

function fromInvoice(event: SubscriptionEventInput, at: number, invoice: Obj, paid: boolean): SubscriptionSnapshot | null {
  const details = obj(obj(invoice.parent).subscription_details);
  const subscriptionId = idOf(invoice.subscription) ?? idOf(details.subscription);
  const reason = invoice.billing_reason;
  if (!subscriptionId || (reason !== 'subscription_cycle' && reason !== 'subscription_create')) return null;
  // The trial's (or a free first period's) $0 invoice: customer.subscription.created says it all.
  if (reason === 'subscription_create' && paid && invoice.amount_paid === 0) return null;
  const line = subscriptionLine(invoice);
  const period = line ? obj(line.period) : { start: invoice.period_start, end: invoice.period_end };
  const periodStart = seconds(period.start);
  if (periodStart === null) return null;
  return snapshot(event, at, {
    source: 'invoice',
    subscriptionId,
    customerId: idOf(invoice.customer),
    userId: userIdOf(obj(details.metadata).user_id, obj(obj(invoice.subscription_details).metadata).user_id),
    stripeStatus: paid ? 'active' : reason === 'subscription_create' ? 'incomplete' : 'past_due',
    trialEnd: null,
    periodStart,
    periodEnd: seconds(period.end),
    // Stripe bills a new period only for a subscription that was not set to end before it.
    cancelAtPeriodEnd: false,
    canceledAt: null,
    subscriptionCreated: null,
  });
}

/** What the event says about a subscription's state, or null when it says nothing (or cannot be ordered). */
export function subscriptionSnapshotFromEvent(event: SubscriptionEventInput): SubscriptionSnapshot | null {
  const at = seconds(event.created);
  if (at === null || !str(event.id)) return null;
  const object = obj(event.data?.object);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return fromCheckoutSession(event, at, object);
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      return fromInvoice(event, at, object, true);
    case 'invoice.payment_failed':
      return fromInvoice(event, at, object, false);
    default:
      if (event.type.startsWith('customer.subscription.') && (object.object === undefined || object.object === 'subscription')) {
        return fromSubscriptionObject(event, at, object, event.type === 'customer.subscription.deleted');
      }
      return null;
  }
}

/** The state a snapshot sets; `same` is the state when it holds the same subscription (an invoice hint keeps its trial end). */
function stateFrom(snap: SubscriptionSnapshot, same: SubscriptionState | null, subscriptionCreated: number | null): SubscriptionState {
  return {
    tier: tierForStatus(snap.stripeStatus),
    status: ROW_STATUS[snap.stripeStatus],
    stripeStatus: snap.stripeStatus,
    trialEnd: snap.source === 'invoice' ? (same?.trialEnd ?? null) : snap.trialEnd,
    currentPeriodStart: snap.currentPeriodStart,
    currentPeriodEnd: snap.currentPeriodEnd,
    cancelAtPeriodEnd: snap.cancelAtPeriodEnd,
    stripeSubscriptionId: snap.subscriptionId,
    stripeCustomerId: snap.customerId ?? same?.stripeCustomerId ?? null,
    version: { order: encodeOrderKey(snap.order), subscriptionCreated },
  };
}

/** The source of the snapshot a version was made from (the third part of its order key). */
function sourceOf(version: SubscriptionVersion): SnapshotSource | undefined {
  const rank = Number(version.order.split(':')[2]);
  return (Object.keys(SOURCE_RANK) as SnapshotSource[]).find((s) => SOURCE_RANK[s] === rank);
}

function next(state: SubscriptionState, snap: SubscriptionSnapshot): SubscriptionState {
  const version = state.version;
  // Nothing from events yet: any snapshot sets the row.
  if (version === null || state.stripeSubscriptionId === null) return stateFrom(snap, null, snap.subscriptionCreated);

  if (state.stripeSubscriptionId === snap.subscriptionId) {
    const created = version.subscriptionCreated ?? snap.subscriptionCreated;
    if (encodeOrderKey(snap.order) > version.order) return stateFrom(snap, state, created);
    // An older snapshot changes nothing, but may still tell when the subscription began and,
    // under an invoice hint (which does not carry it), when its trial ended.
    const trialEnd = state.trialEnd === null && snap.source === 'subscription' && sourceOf(version) === 'invoice' ? snap.trialEnd : state.trialEnd;
    if (created === version.subscriptionCreated && trialEnd === state.trialEnd) return state;
    return { ...state, trialEnd, version: { ...version, subscriptionCreated: created } };
  }

  // Another subscription: only its object can say it is the newer one.
  const theirs = snap.subscriptionCreated;
  if (theirs === null) return state;
  const ours = version.subscriptionCreated;
  const newer = ours === null || theirs > ours || (theirs === ours && snap.subscriptionId > state.stripeSubscriptionId);
  return newer ? stateFrom(snap, null, theirs) : state;
}

function sameTime(a: Date | null, b: Date | null): boolean {
  return a === null || b === null ? a === b : a.getTime() === b.getTime();
}

/** Whether two states are the same, field by field (the watermark included). */
export function sameSubscriptionState(a: SubscriptionState, b: SubscriptionState): boolean {
  return (
    a.tier === b.tier &&
    a.status === b.status &&
    a.stripeStatus === b.stripeStatus &&
    sameTime(a.trialEnd, b.trialEnd) &&
    sameTime(a.currentPeriodStart, b.currentPeriodStart) &&
    sameTime(a.currentPeriodEnd, b.currentPeriodEnd) &&
    a.cancelAtPeriodEnd === b.cancelAtPeriodEnd &&
    a.stripeSubscriptionId === b.stripeSubscriptionId &&
    a.stripeCustomerId === b.stripeCustomerId &&
    a.version?.order === b.version?.order &&
    a.version?.subscriptionCreated === b.version?.subscriptionCreated
  );
}

/** Applies a snapshot (see the file's head for the order). Pure; `changed` when the state differs. */
export function applySubscriptionSnapshot(state: SubscriptionState, snap: SubscriptionSnapshot): AppliedSubscriptionEvent {
  const after = next(state, snap);
  const changed = !sameSubscriptionState(state, after);
  return { state: changed ? after : state, changed, snapshot: snap };
}

/**
 * Applies a verified event to a user's state. Pure: the same event twice changes nothing the
 * second time, and a snapshot older than the state's changes nothing at all.
 */
export function applySubscriptionEvent(state: SubscriptionState, event: SubscriptionEventInput): AppliedSubscriptionEvent {
  const snap = subscriptionSnapshotFromEvent(event);
  return snap ? applySubscriptionSnapshot(state, snap) : { state, changed: false, snapshot: null };
}

/**
 * The tier the limits apply at `now`: the state's, except that Pro whose current period (or
 * trial) ended more than PRO_GRACE_MS ago without a renewal counts as free; a safety net for
 * events that never came, as Stripe renews or ends a subscription at its period's end.
 */
export function tierAt(state: SubscriptionState, now: Date): SubscriptionTier {
  if (state.tier !== 'pro') return 'free';
  const end = state.currentPeriodEnd ?? state.trialEnd;
  return end !== null && now.getTime() > end.getTime() + PRO_GRACE_MS ? 'free' : 'pro';
}
