/**
 * Every SQL statement of subscriptions: a user's user_subscriptions row read as a
 * SubscriptionState (rules.ts) and written back, locked while an event or a verified session is
 * applied to it; the owners of a provider's subscription and customer ids; and the subscription
 * checkouts already processed.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { cursorTs, keysetAfter, type KeysetCursor } from '../../platform/db/repository.ts';
import type { DB, UserSubscriptionsTable } from '../../platform/db/schema.ts';
import type { SubscriptionState } from './rules.ts';

type Db = Kysely<DB> | Transaction<DB>;

const STATE_COLUMNS = [
  'tier',
  'status',
  'stripe_status',
  'trial_end',
  'current_period_start',
  'current_period_end',
  'cancel_at_period_end',
  'stripe_subscription_id',
  'stripe_customer_id',
  'event_order',
  'subscription_created_at',
  'is_third_tier',
] as const;

export type StateRow = Pick<Selectable<UserSubscriptionsTable>, (typeof STATE_COLUMNS)[number]>;

export function stateOf(row: StateRow): SubscriptionState {
  return {
    tier: row.tier,
    status: row.status,
    stripeStatus: row.stripe_status,
    trialEnd: row.trial_end,
    currentPeriodStart: row.current_period_start,
    currentPeriodEnd: row.current_period_end,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    stripeSubscriptionId: row.stripe_subscription_id,
    stripeCustomerId: row.stripe_customer_id,
    version:
      row.event_order === null
        ? null
        : { order: row.event_order, subscriptionCreated: row.subscription_created_at === null ? null : Math.floor(row.subscription_created_at.getTime() / 1000) },
  };
}

function columnsOf(state: SubscriptionState) {
  return {
    tier: state.tier,
    status: state.status,
    stripe_status: state.stripeStatus,
    trial_end: state.trialEnd,
    current_period_start: state.currentPeriodStart,
    current_period_end: state.currentPeriodEnd,
    cancel_at_period_end: state.cancelAtPeriodEnd,
    stripe_subscription_id: state.stripeSubscriptionId,
    stripe_customer_id: state.stripeCustomerId,
    event_order: state.version?.order ?? null,
    subscription_created_at: state.version === null || state.version.subscriptionCreated === null ? null : new Date(state.version.subscriptionCreated * 1000),
  };
}

/** The user's row, unlocked; undefined when there is none (Free). */
export function findState(db: Db, userId: string): Promise<StateRow | undefined> {
  return db.selectFrom('user_subscriptions').select(STATE_COLUMNS).where('user_id', '=', userId).executeTakeFirst();
}

/** The user's row, locked until the transaction ends, so two writers cannot interleave. */
export function lockState(trx: Transaction<DB>, userId: string): Promise<StateRow | undefined> {
  return trx.selectFrom('user_subscriptions').select(STATE_COLUMNS).where('user_id', '=', userId).forUpdate().executeTakeFirst();
}

/** A first row for the user; false when another transaction made one first (lock it and apply again). */
export async function insertState(trx: Transaction<DB>, userId: string, state: SubscriptionState): Promise<boolean> {
  const rows = await trx
    .insertInto('user_subscriptions')
    .values({ user_id: userId, ...columnsOf(state) })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}

/**
 * Writes the state over the row read as `expectedOrder` (its watermark): a row that moved since
 * (it cannot while locked) is left alone and false is answered.
 */
export async function updateState(trx: Transaction<DB>, userId: string, state: SubscriptionState, expectedOrder: string | null): Promise<boolean> {
  const res = await trx
    .updateTable('user_subscriptions')
    .set({ ...columnsOf(state), updated_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where(sql<boolean>`event_order IS NOT DISTINCT FROM ${expectedOrder}::text`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function userExists(db: Db, userId: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

export async function findUserEmail(db: Db, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email ?? null;
}

/** Whose row holds the provider's subscription. */
export async function ownerOfSubscription(db: Db, subscriptionId: string): Promise<string | null> {
  const row = await db.selectFrom('user_subscriptions').select('user_id').where('stripe_subscription_id', '=', subscriptionId).executeTakeFirst();
  return row?.user_id ?? null;
}

/** Whose row holds the provider's customer; null when none or more than one do. */
export async function ownerOfCustomer(db: Db, customerId: string): Promise<string | null> {
  const rows = await db.selectFrom('user_subscriptions').select('user_id').where('stripe_customer_id', '=', customerId).limit(2).execute();
  return rows.length === 1 ? rows[0]!.user_id : null;
}

/** An active creator (the profile's owner) by username, any case, with their row when they have one. */
export function findCreatorSubscription(db: Db, username: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_subscriptions as s', 's.user_id', 'u.id')
    .select([
      'u.id as user_id',
      's.tier',
      's.status',
      's.stripe_status',
      's.trial_end',
      's.current_period_start',
      's.current_period_end',
      's.cancel_at_period_end',
      's.stripe_subscription_id',
      's.stripe_customer_id',
      's.event_order',
      's.subscription_created_at',
      's.is_third_tier',
    ])
    .where(sql<boolean>`lower(u.username) = lower(${username})`)
    .where('u.status', '=', 'active')
    .where('u.role', '=', 'creator')
    .executeTakeFirst();
}

export function findProcessedSession(db: Db, sessionId: string) {
  return db.selectFrom('subscription_checkout_sessions').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
}

/** Records a processed checkout for its user; a session recorded already keeps its first record. */
export async function recordProcessedSession(
  trx: Transaction<DB>,
  s: { sessionId: string; userId: string; subscriptionId: string | null; customerId: string | null },
): Promise<void> {
  await trx
    .insertInto('subscription_checkout_sessions')
    .values({ session_id: s.sessionId, user_id: s.userId, stripe_subscription_id: s.subscriptionId, stripe_customer_id: s.customerId })
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
}

/* ---- The admin portal's list (admin.ts) ---- */

export interface AdminSubscriptionFilter {
  tier?: 'free' | 'pro';
  status?: Selectable<UserSubscriptionsTable>['status'];
  /** A LIKE pattern already escaped (backslash), matched against username and email; null for everyone. */
  pattern: string | null;
  before: KeysetCursor | null;
  limit: number;
}

/** Subscriptions with their users, newest first (created_at DESC, id DESC). */
export function listAdminSubscriptions(db: Db, f: AdminSubscriptionFilter) {
  let q = db
    .selectFrom('user_subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      'u.id as user_id',
      'u.username',
      'u.email',
      'u.display_name',
      's.tier',
      's.status',
      's.is_third_tier',
      's.trial_end',
      's.current_period_end',
      's.cancel_at_period_end',
      's.created_at',
      cursorTs('s.created_at').as('cursor_ts'),
    ]);
  if (f.tier) q = q.where('s.tier', '=', f.tier);
  if (f.status) q = q.where('s.status', '=', f.status);
  if (f.pattern !== null) {
    const p = f.pattern;
    q = q.where(sql<boolean>`(u.username ilike ${p} escape '\\' or u.email ilike ${p} escape '\\')`);
  }
  if (f.before) q = q.where(keysetAfter('s.created_at', 's.id', f.before));
  return q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(f.limit).execute();
}
