/**
 * Every SQL statement of payouts: the payout methods on offer (payment_method_options) and a
 * creator's payout setup, kept on their users row. Bank numbers arrive here sealed; nothing here
 * sees them in the clear.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { cursorTs, keysetAfter, type KeysetCursor } from '../../platform/db/repository.ts';
import type { DB, UsersTable } from '../../platform/db/schema.ts';

export type MethodName = DB['payment_method_options']['method_name'];

/** get_user_payment_methods(user_country): available methods serving every country or this one, in the site's order. */
export function listAvailableMethods(db: Kysely<DB>, country: string) {
  return db
    .selectFrom('payment_method_options')
    .select(['method_name', 'display_name', 'description', 'fees_basis_points', 'fees_fixed_cents', 'processing_time_days', 'min_payout_cents', 'is_available'])
    .where('is_available', '=', true)
    .where((eb) => eb.or([eb('countries', 'is', null), sql<boolean>`${country} = any(countries)`]))
    .orderBy('sort_order')
    .orderBy('method_name')
    .execute();
}

/** Whether the method is offered at all just now (is_available), whatever the country. */
export async function isMethodAvailable(db: Kysely<DB>, method: MethodName): Promise<boolean> {
  const row = await db.selectFrom('payment_method_options').select('is_available').where('method_name', '=', method).executeTakeFirst();
  return row?.is_available === true;
}

/** The columns a payout setup is read from (the sealed numbers are not among them). */
const SETUP_COLUMNS = [
  'preferred_payment_method',
  'payout_enabled',
  'paypal_email',
  'ach_routing_last4',
  'ach_account_last4',
  'ach_account_type',
  'ach_account_holder_name',
  'bank_account_verified',
  'stripe_connect_email',
  'stripe_connect_status',
  'tax_id',
  'tax_info_verified',
  'payout_threshold_cents',
] as const;

export type SetupRow = Pick<Selectable<UsersTable>, (typeof SETUP_COLUMNS)[number]>;

export function findSetup(db: Kysely<DB>, userId: string): Promise<SetupRow | undefined> {
  return db.selectFrom('users').select(SETUP_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

/** What saving one method writes besides turning payouts on; the bank numbers already sealed. */
export type MethodColumns =
  | { preferred_payment_method: 'paypal'; paypal_email: string }
  | {
      preferred_payment_method: 'ach';
      ach_routing_number_encrypted: string;
      ach_routing_last4: string;
      ach_account_number_encrypted: string;
      ach_account_last4: string;
      ach_account_holder_name: string;
      ach_account_type: 'checking' | 'savings';
      bank_account_verified: false;
    }
  | {
      preferred_payment_method: 'stripe_connect';
      stripe_connect_email: string;
      stripe_connect_status: 'pending' | 'active' | 'restricted' | 'disabled';
      stripe_connect_account_id?: string;
    };

/** One UPDATE: the method's details, the preferred method and payouts on, all or nothing. Undefined when no such user. */
export function saveMethod(db: Kysely<DB>, userId: string, columns: MethodColumns): Promise<SetupRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...columns, payout_enabled: true, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .returning(SETUP_COLUMNS)
    .executeTakeFirst();
}

/** The creator's Stripe Connect account and its status, if they have a users row. */
export function findConnectAccount(db: Kysely<DB>, userId: string) {
  return db.selectFrom('users').select(['id', 'stripe_connect_account_id', 'stripe_connect_status']).where('id', '=', userId).executeTakeFirst();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type ConnectStatus = NonNullable<UsersTable['stripe_connect_status']>;

/**
 * A Connect account's status, on its creator's row: the user named by userId (unless their row
 * holds another account), else the user holding accountId. One UPDATE that changes nothing when
 * the row already says so. Answers false when no user has (or may take) the account.
 */
export async function setConnectAccountStatus(db: Kysely<DB>, userId: string | null, accountId: string, status: ConnectStatus): Promise<boolean> {
  const byUser = userId && UUID.test(userId) ? await findConnectAccount(db, userId) : undefined;
  const owner =
    byUser && (byUser.stripe_connect_account_id === null || byUser.stripe_connect_account_id === accountId)
      ? byUser
      : await db.selectFrom('users').select(['id', 'stripe_connect_account_id', 'stripe_connect_status']).where('stripe_connect_account_id', '=', accountId).executeTakeFirst();
  if (!owner) return false;
  await db
    .updateTable('users')
    .set({ stripe_connect_account_id: accountId, stripe_connect_status: status, updated_at: sql<Date>`now()` })
    .where('id', '=', owner.id)
    .where((eb) => eb.or([eb('stripe_connect_account_id', 'is', null), eb('stripe_connect_account_id', '=', accountId)]))
    .where((eb) => eb.or([eb('stripe_connect_account_id', 'is', null), eb('stripe_connect_status', 'is', null), eb('stripe_connect_status', '!=', status)]))
    .execute();
  return true;
}

/** Step 2: the payment email, kept as tax_id and not yet verified. Undefined when no such user. */
export function saveTaxEmail(db: Kysely<DB>, userId: string, email: string): Promise<SetupRow | undefined> {
  return db
    .updateTable('users')
    .set({ tax_id: email, tax_info_verified: false, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .returning(SETUP_COLUMNS)
    .executeTakeFirst();
}

/** The sealed bank numbers and their details, for the payout run only. */
export function findSealedBankAccount(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('users')
    .select(['ach_routing_number_encrypted', 'ach_account_number_encrypted', 'ach_account_holder_name', 'ach_account_type'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/* ---- The payment portal and the monthly statement: a creator's payouts, read only ---- */

const PORTAL_PAYOUT_COLUMNS = ['payout_date', 'period', 'amount_cents', 'fee_cents', 'method', 'status'] as const;

/** The creator's latest `limit` payouts, newest first (dates are YYYY-MM-DD text). */
export function latestPayouts(db: Kysely<DB>, userId: string, limit: number) {
  return db
    .selectFrom('payouts')
    .select(PORTAL_PAYOUT_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('payout_date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The date of the creator's latest paid payout, if any. */
export async function lastPaidPayoutDate(db: Kysely<DB>, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('payouts')
    .select(sql<string | null>`max(payout_date)::text`.as('date'))
    .where('user_id', '=', userId)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  return row?.date ?? null;
}

/** The creator's payouts dated from `from` up to, not including, `to` (both YYYY-MM-DD), oldest first. */
export function payoutsBetween(db: Kysely<DB>, userId: string, from: string, to: string) {
  return db
    .selectFrom('payouts')
    .select(PORTAL_PAYOUT_COLUMNS)
    .where('user_id', '=', userId)
    .where('payout_date', '>=', from)
    .where('payout_date', '<', to)
    .orderBy('payout_date')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/* ---- The monthly payout run (run.ts): payouts made, sent and settled ---- */

export type PayoutStatusName = 'pending' | 'processing' | 'paid' | 'failed';

/**
 * Creators a run may pay for a period, in id order after `afterId`: payouts on, active, a method
 * chosen, and unheld earnings created before the cut-off adding up to at least their threshold.
 * The run decides again for each one under its lock; this only narrows the list.
 */
export async function payoutCandidates(db: Kysely<DB>, cutoff: Date, afterId: string | null, limit: number): Promise<string[]> {
  let query = db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.payout_enabled', '=', true)
    .where('u.status', '=', 'active')
    .where('u.preferred_payment_method', 'is not', null)
    .where(
      (eb) =>
        eb
          .selectFrom('earnings as e')
          .select(sql<number>`coalesce(sum(e.creator_share_cents), 0)`.as('cents'))
          .whereRef('e.user_id', '=', 'u.id')
          .where('e.payout_id', 'is', null)
          .where('e.created_at', '<', cutoff),
      '>=',
      sql<number>`greatest(u.payout_threshold_cents, 1)`,
    )
    .orderBy('u.id')
    .limit(limit);
  if (afterId) query = query.where('u.id', '>', afterId);
  return (await query.execute()).map((r) => r.id);
}

/**
 * The creator's row, locked until the transaction ends (so earnings written meanwhile wait, and
 * a second run for the same creator waits), with the chosen method's terms. Every transaction
 * of the run locks the creator first, then their payout: one order, no deadlock.
 */
export function lockCreatorForPayout(trx: Transaction<DB>, userId: string) {
  return trx
    .selectFrom('users as u')
    .leftJoin('payment_method_options as m', 'm.method_name', 'u.preferred_payment_method')
    .select([
      'u.payout_enabled',
      'u.status',
      'u.preferred_payment_method',
      'u.payout_threshold_cents',
      'u.paypal_email',
      'u.ach_routing_number_encrypted',
      'u.ach_account_number_encrypted',
      'u.stripe_connect_account_id',
      'u.stripe_connect_status',
      'm.fees_basis_points',
      'm.fees_fixed_cents',
      'm.min_payout_cents',
      'm.is_available',
    ])
    .where('u.id', '=', userId)
    .forNoKeyUpdate('u')
    .executeTakeFirst();
}

/** Locks the creator's row (see lockCreatorForPayout); false when there is no such user. */
export async function lockCreator(trx: Transaction<DB>, userId: string): Promise<boolean> {
  const row = await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirst();
  return row !== undefined;
}

/** The sum and number of the creator's earning records created before the cut-off that no payout holds. */
export async function unheldEarnings(trx: Transaction<DB>, userId: string, cutoff: Date): Promise<{ cents: number; rows: number }> {
  const row = await trx
    .selectFrom('earnings')
    .select([sql<number>`coalesce(sum(creator_share_cents), 0)::bigint`.as('cents'), sql<number>`count(*)::int`.as('rows')])
    .where('user_id', '=', userId)
    .where('payout_id', 'is', null)
    .where('created_at', '<', cutoff)
    .executeTakeFirstOrThrow();
  return { cents: Number(row.cents), rows: Number(row.rows) };
}

export interface NewPayout {
  userId: string;
  period: string;
  method: MethodName;
  amountCents: number;
  feeCents: number;
  /** YYYY-MM-DD: the day it was made; when it is paid, the day it was paid. */
  payoutDate: string;
}

/** Inserts the creator's payout for the period unless they already have one; answers the new id. */
export async function insertPayoutOnce(trx: Transaction<DB>, p: NewPayout): Promise<string | undefined> {
  const row = await trx
    .insertInto('payouts')
    .values({ user_id: p.userId, period: p.period, method: p.method, amount_cents: p.amountCents, fee_cents: p.feeCents, payout_date: p.payoutDate })
    .onConflict((oc) => oc.columns(['user_id', 'period']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Hands the creator's unheld earning records created before the cut-off to the payout; answers their sum and number. */
export async function assignEarnings(trx: Transaction<DB>, userId: string, payoutId: string, cutoff: Date): Promise<{ cents: number; rows: number }> {
  const res = await sql<{ cents: number; rows: number }>`
    with taken as (
      update earnings set payout_id = ${payoutId}
      where user_id = ${userId} and payout_id is null and created_at < ${cutoff}
      returning creator_share_cents)
    select coalesce(sum(creator_share_cents), 0)::bigint as cents, count(*)::int as rows from taken`.execute(trx);
  const row = res.rows[0]!;
  return { cents: Number(row.cents), rows: Number(row.rows) };
}

/** Lets go of the payout's earning records (they are pending again); answers their sum and number. */
export async function releaseEarnings(trx: Transaction<DB>, payoutId: string): Promise<{ cents: number; rows: number }> {
  const res = await sql<{ cents: number; rows: number }>`
    with released as (
      update earnings set payout_id = null where payout_id = ${payoutId}
      returning creator_share_cents)
    select coalesce(sum(creator_share_cents), 0)::bigint as cents, count(*)::int as rows from released`.execute(trx);
  const row = res.rows[0]!;
  return { cents: Number(row.cents), rows: Number(row.rows) };
}

/** Moves users.pending_payout_cents by delta (it may go below zero). */
export async function addToPendingPayout(trx: Transaction<DB>, userId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  await trx
    .updateTable('users')
    .set({ pending_payout_cents: sql<number>`pending_payout_cents + ${delta}`, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .execute();
}

/** The latest of its last payout date and this one. */
export async function recordLastPayoutDate(trx: Transaction<DB>, userId: string, day: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({ last_payout_date: sql<Date>`greatest(coalesce(last_payout_date, ${day}::date), ${day}::date)`, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .execute();
}

const PAYOUT_COLUMNS = [
  'id',
  'user_id',
  'status',
  'method',
  'amount_cents',
  'fee_cents',
  'provider_reference',
  'failure_reason',
  'attempt',
  sql<string>`period::text`.as('period'),
] as const;

/** Payouts still to be sent (pending, of any period), in id order after `afterId`. */
export function pendingPayouts(db: Kysely<DB>, afterId: string | null, limit: number) {
  let query = db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('status', '=', 'pending').orderBy('id').limit(limit);
  if (afterId) query = query.where('id', '>', afterId);
  return query.execute();
}

export function findPayout(db: Kysely<DB>, payoutId: string) {
  return db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('id', '=', payoutId).executeTakeFirst();
}

export function findPayoutOf(db: Kysely<DB>, userId: string, period: string) {
  return db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('user_id', '=', userId).where('period', '=', period).executeTakeFirst();
}

export function findPayoutByReference(db: Kysely<DB>, providerReference: string) {
  return db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('provider_reference', '=', providerReference).orderBy('created_at', 'desc').executeTakeFirst();
}

/** The payout, locked until the transaction ends. */
export function lockPayout(trx: Transaction<DB>, payoutId: string) {
  return trx.selectFrom('payouts').select(PAYOUT_COLUMNS).where('id', '=', payoutId).forUpdate().executeTakeFirst();
}

/** Moves the payout from `from` to `to` (nothing when it is no longer in `from`); answers whether it moved. */
export async function movePayout(
  trx: Transaction<DB>,
  payoutId: string,
  from: PayoutStatusName,
  to: PayoutStatusName,
  fields: { providerReference?: string; payoutDate?: string; failureReason?: string },
): Promise<boolean> {
  const res = await trx
    .updateTable('payouts')
    .set({
      status: to,
      ...(fields.providerReference ? { provider_reference: sql<string>`coalesce(provider_reference, ${fields.providerReference})` } : {}),
      ...(fields.payoutDate ? { payout_date: fields.payoutDate } : {}),
      ...(to === 'failed' ? { failure_reason: fields.failureReason ?? null } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', payoutId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Where the creator's payouts go, as saved (the bank numbers stay sealed: bankAccountOf opens them). */
export function payoutDestinationRow(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('users')
    .select(['paypal_email', 'stripe_connect_account_id', 'stripe_connect_status'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** What the creator's email about a payout says: their address and name, the method's name and days, the bank's last 4 digits. */
export function payoutMailFacts(db: Kysely<DB>, payoutId: string) {
  return db
    .selectFrom('payouts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .innerJoin('payment_method_options as m', 'm.method_name', 'p.method')
    .select([
      'p.id',
      'p.method',
      'p.amount_cents',
      'p.fee_cents',
      sql<string>`p.period::text`.as('period'),
      'u.email',
      'u.display_name',
      'u.ach_account_last4',
      'm.display_name as method_display_name',
      'm.processing_time_days',
    ])
    .where('p.id', '=', payoutId)
    .executeTakeFirst();
}

/* ---- The admin portal (admin.ts): runs by period, the payouts list, a failed payout sent again ---- */

/** One row per period with payouts, newest period first, before `beforePeriod` (YYYY-MM-01) when given. */
export function payoutRunsByPeriod(db: Kysely<DB>, f: { beforePeriod: string | null; limit: number }) {
  let q = db
    .selectFrom('payouts')
    .select([
      sql<string>`to_char(period, 'YYYY-MM')`.as('month'),
      sql<string>`count(*)::int`.as('payouts'),
      sql<string>`coalesce(sum(amount_cents), 0)::bigint`.as('amount_cents'),
      sql<string>`coalesce(sum(fee_cents), 0)::bigint`.as('fee_cents'),
      sql<string>`(count(*) filter (where status = 'pending'))::int`.as('pending'),
      sql<string>`(count(*) filter (where status = 'processing'))::int`.as('processing'),
      sql<string>`(count(*) filter (where status = 'paid'))::int`.as('paid'),
      sql<string>`(count(*) filter (where status = 'failed'))::int`.as('failed'),
      sql<string>`(count(*) filter (where method = 'ach'))::int`.as('ach'),
    ])
    .groupBy('period')
    .orderBy('period', 'desc')
    .limit(f.limit);
  if (f.beforePeriod) q = q.where('period', '<', f.beforePeriod);
  return q.execute();
}

export interface AdminPayoutFilter {
  /** YYYY-MM-01 */
  period?: string;
  status?: PayoutStatusName;
  before: KeysetCursor | null;
  limit: number;
}

/** Whether a failed payout may be sent again: its creator is there and has earnings before its cut-off that no payout holds. */
const canRetry = sql<boolean>`(p.status = 'failed' and p.user_id is not null and (
  select coalesce(sum(e.creator_share_cents), 0) from earnings e
  where e.user_id = p.user_id and e.payout_id is null and e.created_at < (p.period::timestamp at time zone 'UTC')) > 0)`;

function adminPayoutQuery(db: Kysely<DB>) {
  return db
    .selectFrom('payouts as p')
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      sql<string>`to_char(p.period, 'YYYY-MM')`.as('month'),
      'p.user_id',
      'u.username',
      'u.email',
      'p.method',
      'p.amount_cents',
      'p.fee_cents',
      'p.status',
      'p.failure_reason',
      'p.provider_reference',
      'p.created_at',
      'p.updated_at',
      canRetry.as('can_retry'),
      cursorTs('p.created_at').as('cursor_ts'),
    ]);
}

export type AdminPayoutDbRow = Awaited<ReturnType<typeof listAdminPayouts>>[number];

/** Payouts newest first (created_at DESC, id DESC), by period and status. */
export function listAdminPayouts(db: Kysely<DB>, f: AdminPayoutFilter) {
  let q = adminPayoutQuery(db);
  if (f.period) q = q.where('p.period', '=', f.period);
  if (f.status) q = q.where('p.status', '=', f.status);
  if (f.before) q = q.where(keysetAfter('p.created_at', 'p.id', f.before));
  return q.orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(f.limit).execute();
}

export function findAdminPayout(db: Kysely<DB>, payoutId: string) {
  return adminPayoutQuery(db).where('p.id', '=', payoutId).executeTakeFirst();
}

export interface ReopenedPayout {
  method: MethodName;
  amountCents: number;
  feeCents: number;
  /** YYYY-MM-DD: the day it is sent again. */
  payoutDate: string;
}

/**
 * A failed payout made pending again for its next attempt: the method, amount and fee of now,
 * the failure and the provider's reference of the failed attempt cleared. Nothing when it is no
 * longer failed; answers the new attempt's number.
 */
export async function reopenFailedPayout(trx: Transaction<DB>, payoutId: string, p: ReopenedPayout): Promise<number | undefined> {
  const row = await trx
    .updateTable('payouts')
    .set({
      status: 'pending',
      method: p.method,
      amount_cents: p.amountCents,
      fee_cents: p.feeCents,
      payout_date: p.payoutDate,
      provider_reference: null,
      failure_reason: null,
      attempt: sql<number>`attempt + 1`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', payoutId)
    .where('status', '=', 'failed')
    .returning('attempt')
    .executeTakeFirst();
  return row?.attempt;
}
