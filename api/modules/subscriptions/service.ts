/**
 * Subscriptions: the user_subscriptions row changes only here, and only from what the payment
 * provider says, never from what a client sends:
 *  - its verified events (applySubscriptionPaymentEvent, called by the payment webhook inside
 *    the transaction that records the event, so each takes effect once);
 *  - a verified session (activateFromSession): the provider's own record of the caller's
 *    finished checkout and its subscription, applied through the same rules as the events.
 * Either way the row is locked (SELECT ... FOR UPDATE; a first row is inserted ON CONFLICT DO
 * NOTHING and locked again when another transaction made it first) and written back only when
 * rules.ts says the state changed, so two writers at once cannot interleave and the arrival order
 * of events does not matter (rules.ts, THE ORDER). Free is the fallback when no row exists.
 *
 * A checkout session belongs to the user it was opened for (the provider keeps the user id we
 * gave it); anyone else presenting its id is answered exactly as for an unknown session (404).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { SUBSCRIPTION_MESSAGES, type SubscriptionView, type VerifySubscriptionReply } from '../../../shared/schemas/subscriptions.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { SUBSCRIPTION_TIERS } from '../../../shared/subscriptions.ts';
import type { PaymentEvent, PaymentProvider } from '../../integrations/stripe/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import * as repo from './repository.ts';
import {
  applySubscriptionSnapshot,
  FREE_STATE,
  subscriptionSnapshotFromEvent,
  tierAt,
  type AppliedSubscriptionEvent,
  type SubscriptionEventInput,
  type SubscriptionSnapshot,
  type SubscriptionState,
} from './rules.ts';

/** What this module asks of app.payments. */
export type SubscriptionPayments = Pick<PaymentProvider, 'createSubscriptionCheckout' | 'retrieveSubscriptionSession' | 'retrieveSubscription' | 'manageSubscriptionUrl'>;

export interface SubscriptionDeps {
  db: Kysely<DB>;
  payments: SubscriptionPayments;
  /** The site's origin, for the checkout's return addresses. */
  publicUrl: string;
  now: () => Date;
  log?: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

export const SUCCESS_PATH = '/subscription-success';
export const TIERS_PATH = '/subscription-tiers';

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;
const quiet: Log = { warn: () => undefined, info: () => undefined } as unknown as Log;

// ---------------------------------------------------------------------------------------------
// Events

const SUBSCRIPTION_EVENT_TYPES: ReadonlySet<string> = new Set(['invoice.paid', 'invoice.payment_succeeded', 'invoice.payment_failed']);

function obj(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * Whether the event is this module's: a checkout in subscription mode (completed, or its
 * delayed payment succeeded), any customer.subscription.* event, or a paid or failed invoice.
 */
export function isSubscriptionEvent(event: Pick<PaymentEvent, 'type' | 'data'>): boolean {
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    return obj(event.data?.object).mode === 'subscription';
  }
  return event.type.startsWith('customer.subscription.') || SUBSCRIPTION_EVENT_TYPES.has(event.type);
}

export type SubscriptionEffect = 'subscription' | 'none';

/**
 * Whose subscription a snapshot is about: the user its metadata names (we put it there when the
 * checkout was opened; the event is verified), else whoever's row holds the subscription, else
 * the one row holding its customer. Null when no one's, or when the metadata and the row that
 * holds the subscription disagree (then nothing is changed, and the conflict is logged).
 */
async function ownerOf(trx: Transaction<DB>, snap: SubscriptionSnapshot, log: Log): Promise<string | null> {
  const holder = await repo.ownerOfSubscription(trx, snap.subscriptionId);
  if (snap.userId) {
    if (holder && holder !== snap.userId) {
      log.warn({ subscriptionId: snap.subscriptionId, eventId: snap.eventId }, "subscription named for one user is another user's: no effect");
      return null;
    }
    return (await repo.userExists(trx, snap.userId)) ? snap.userId : null;
  }
  if (holder) return holder;
  return snap.customerId ? repo.ownerOfCustomer(trx, snap.customerId) : null;
}

/** Applies a snapshot to the user's row under its lock; writes only a change. */
async function applyLocked(trx: Transaction<DB>, userId: string, snap: SubscriptionSnapshot): Promise<AppliedSubscriptionEvent> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await repo.lockState(trx, userId);
    const state = row ? repo.stateOf(row) : FREE_STATE;
    const applied = applySubscriptionSnapshot(state, snap);
    if (!applied.changed) return applied;
    if (row ? await repo.updateState(trx, userId, applied.state, state.version?.order ?? null) : await repo.insertState(trx, userId, applied.state)) return applied;
    // Another transaction made the first row a moment ago: lock it and apply again.
  }
  throw Object.assign(new Error('subscription row kept moving'), { code: '40001' });
}

/**
 * A verified payment event about a subscription, inside the webhook's transaction (after the
 * event was recorded as processed). An event that says nothing, or about no known user, is
 * recorded and changes nothing.
 */
export async function applySubscriptionPaymentEvent(trx: Transaction<DB>, event: SubscriptionEventInput, log: Log = quiet): Promise<{ effect: SubscriptionEffect; userId: string | null }> {
  const snap = subscriptionSnapshotFromEvent(event);
  if (!snap) {
    log.info({ eventId: event.id, type: event.type }, 'subscription event that says nothing about a subscription: recorded, no effect');
    return { effect: 'none', userId: null };
  }
  const userId = await ownerOf(trx, snap, log);
  if (!userId) {
    log.warn({ eventId: event.id, type: event.type, subscriptionId: snap.subscriptionId }, 'subscription event for no known user: recorded, no effect');
    return { effect: 'none', userId: null };
  }
  const applied = await applyLocked(trx, userId, snap);
  const sessionId = event.type.startsWith('checkout.session.') ? obj(event.data.object).id : undefined;
  if (typeof sessionId === 'string' && sessionId.length > 0 && sessionId.length <= 255) {
    await repo.recordProcessedSession(trx, { sessionId, userId, subscriptionId: snap.subscriptionId, customerId: snap.customerId });
  }
  return { effect: applied.changed ? 'subscription' : 'none', userId };
}

// ---------------------------------------------------------------------------------------------
// Reads

export function viewOf(state: SubscriptionState, now: Date): SubscriptionView {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    tier: tierAt(state, now),
    status: state.status,
    stripe_status: state.stripeStatus,
    trial_end: iso(state.trialEnd),
    current_period_start: iso(state.currentPeriodStart),
    current_period_end: iso(state.currentPeriodEnd),
    cancel_at_period_end: state.cancelAtPeriodEnd,
    stripe_subscription_id: state.stripeSubscriptionId,
    stripe_customer_id: state.stripeCustomerId,
    can_manage: state.stripeCustomerId !== null,
  };
}

/** The user's state, FREE_STATE when they have no row. */
export async function stateOfUser(db: Kysely<DB> | Transaction<DB>, userId: string): Promise<SubscriptionState> {
  const row = await repo.findState(db, userId);
  return row ? repo.stateOf(row) : FREE_STATE;
}

/** The tier the user's limits apply at `now` (rules.ts tierAt): Free without a row. */
export async function effectiveTierOf(db: Kysely<DB>, userId: string, now: Date): Promise<'free' | 'pro'> {
  return tierAt(await stateOfUser(db, userId), now);
}

export async function mySubscription(deps: Pick<SubscriptionDeps, 'db' | 'now'>, userId: string): Promise<SubscriptionView> {
  return viewOf(await stateOfUser(deps.db, userId), deps.now());
}

/** A creator's tier for their profile; 404 'User not found' for anyone without a public profile. */
export async function publicSubscription(deps: Pick<SubscriptionDeps, 'db' | 'now'>, username: string) {
  const row = await repo.findCreatorSubscription(deps.db, username);
  if (!row) throw AppError.notFound(SUBSCRIPTION_MESSAGES.userNotFound);
  const state = row.tier === null ? FREE_STATE : repo.stateOf(row as repo.StateRow);
  return { success: true as const, tier: tierAt(state, deps.now()), status: state.status, isThirdTier: row.is_third_tier === true };
}

// ---------------------------------------------------------------------------------------------
// The provider

function unavailable(): AppError {
  return new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, SUBSCRIPTION_MESSAGES.providerUnavailable);
}

/** A provider call; its failure is the caller's 502 (an AppError passes through). */
async function ask<T>(deps: Pick<SubscriptionDeps, 'log'>, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    deps.log?.warn({ err, what }, 'payment provider call failed');
    throw unavailable();
  }
}

const unknownSession = () => AppError.notFound(SUBSCRIPTION_MESSAGES.unknownSession);

/**
 * POST /api/subscriptions/checkout: a hosted checkout for Pro, for the signed-in user (the
 * provider keeps their id), unless their Pro is live (409).
 */
export async function startCheckout(deps: SubscriptionDeps, userId: string): Promise<{ success: true; url: string }> {
  const state = await stateOfUser(deps.db, userId);
  const now = deps.now();
  if (tierAt(state, now) === 'pro') throw new AppError(409, ERROR_CODES.CONFLICT, SUBSCRIPTION_MESSAGES.alreadySubscribed);
  const pro = SUBSCRIPTION_TIERS.pro;
  const email = await repo.findUserEmail(deps.db, userId);
  // One checkout per user per minute: a double click answers the same session.
  const minute = Math.floor(now.getTime() / 60_000);
  const session = await ask(deps, 'createSubscriptionCheckout', () =>
    deps.payments.createSubscriptionCheckout({
      userId,
      customerEmail: email,
      customerId: state.stripeCustomerId,
      productName: `FrameMerch ${pro.name}`,
      monthlyPriceCents: pro.monthlyPriceCents,
      trialDays: pro.trialDays,
      successUrl: `${deps.publicUrl}${SUCCESS_PATH}?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${deps.publicUrl}${TIERS_PATH}`,
      idempotencyKey: `subscription-checkout:${userId}:${minute}`,
    }),
  );
  return { success: true, url: session.url };
}

/** The provider's record of the caller's session; someone else's answers as an unknown one. */
async function ownSession(deps: SubscriptionDeps, userId: string, sessionId: string) {
  const info = await ask(deps, 'retrieveSubscriptionSession', () => deps.payments.retrieveSubscriptionSession(sessionId));
  if (!info || info.userId?.toLowerCase() !== userId.toLowerCase()) throw unknownSession();
  return info;
}

/**
 * GET /api/subscriptions/verify/:sessionId. Writes nothing. A session processed already (by its
 * event or an activation) answers success at once; otherwise the provider's record: complete
 * (success), open (not yet: the page asks again) or expired (it never will be).
 */
export async function verifySession(deps: SubscriptionDeps, userId: string, sessionId: string): Promise<VerifySubscriptionReply> {
  const processed = await repo.findProcessedSession(deps.db, sessionId);
  if (processed) {
    if (processed.user_id !== userId) throw unknownSession();
    return {
      success: true,
      status: 'complete',
      subscription_id: processed.stripe_subscription_id,
      customer_id: processed.stripe_customer_id,
      message: SUBSCRIPTION_MESSAGES.alreadyProcessed,
    };
  }
  const info = await ownSession(deps, userId, sessionId);
  if (info.status === 'open') return { success: false, status: 'open', subscription_id: null, customer_id: null, message: SUBSCRIPTION_MESSAGES.notCompleteYet };
  if (info.status === 'expired') return { success: false, status: 'expired', subscription_id: null, customer_id: null, message: SUBSCRIPTION_MESSAGES.expired };
  if (!info.subscriptionId) return { success: false, status: 'complete', subscription_id: null, customer_id: info.customerId, message: SUBSCRIPTION_MESSAGES.verificationFailed };
  return { success: true, status: 'complete', subscription_id: info.subscriptionId, customer_id: info.customerId, message: SUBSCRIPTION_MESSAGES.verified };
}

/** Failures another attempt can clear (as the payment webhook retries them). */
const RETRYABLE = new Set(['40001', '40P01', '23505']);

async function inTransaction<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= 5 || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      await new Promise((r) => setTimeout(r, attempt * 20 + Math.random() * 20));
    }
  }
}

/**
 * POST /api/subscriptions/activate: the caller's finished checkout, as the provider reports it,
 * applied through the same rules as the events (as a snapshot of the subscription object taken
 * now), and the session recorded as processed. Nothing the client sent but the session id is
 * read. A session processed already answers the subscription at once.
 */
export async function activateFromSession(deps: SubscriptionDeps, userId: string, sessionId: string): Promise<SubscriptionView> {
  const processed = await repo.findProcessedSession(deps.db, sessionId);
  if (processed) {
    if (processed.user_id !== userId) throw unknownSession();
    return mySubscription(deps, userId);
  }
  const info = await ownSession(deps, userId, sessionId);
  if (info.status === 'open') throw new AppError(409, ERROR_CODES.CONFLICT, SUBSCRIPTION_MESSAGES.notCompleteYet);
  if (info.status === 'expired') throw new AppError(409, ERROR_CODES.CONFLICT, SUBSCRIPTION_MESSAGES.expired);
  const subscriptionId = info.subscriptionId;
  if (!subscriptionId) throw new AppError(409, ERROR_CODES.CONFLICT, SUBSCRIPTION_MESSAGES.verificationFailed);
  // Taken before asking: the object read after it is at least this new.
  const at = Math.floor(deps.now().getTime() / 1000);
  const subscription = await ask(deps, 'retrieveSubscription', () => deps.payments.retrieveSubscription(subscriptionId));
  if (!subscription || obj(subscription).id !== subscriptionId) throw unavailable();
  const event: SubscriptionEventInput = {
    id: `retrieved_${sessionId}_${at}`,
    type: 'customer.subscription.updated',
    created: at,
    data: { object: { ...obj(subscription), customer: obj(subscription).customer ?? info.customerId } },
  };
  const snap = subscriptionSnapshotFromEvent(event);
  if (!snap) throw unavailable();
  // The subscription's own metadata must not name someone else either.
  if (snap.userId && snap.userId !== userId.toLowerCase()) throw unknownSession();
  await inTransaction(deps.db, async (trx) => {
    const holder = await repo.ownerOfSubscription(trx, subscriptionId);
    if (holder && holder !== userId) throw unknownSession();
    await applyLocked(trx, userId, snap);
    await repo.recordProcessedSession(trx, { sessionId, userId, subscriptionId, customerId: snap.customerId ?? info.customerId });
  });
  return mySubscription(deps, userId);
}

/** POST /api/subscriptions/manage: the provider's page for the caller's customer, back to the tiers page. */
export async function manageUrl(deps: SubscriptionDeps, userId: string): Promise<{ success: true; url: string }> {
  const state = await stateOfUser(deps.db, userId);
  const customerId = state.stripeCustomerId;
  if (!customerId) throw AppError.notFound(SUBSCRIPTION_MESSAGES.nothingToManage);
  const url = await ask(deps, 'manageSubscriptionUrl', () => deps.payments.manageSubscriptionUrl(customerId, `${deps.publicUrl}${TIERS_PATH}`));
  return { success: true, url };
}
