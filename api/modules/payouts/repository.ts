/**
 * Every SQL statement of payouts: the payout methods on offer (payment_method_options) and a
 * creator's payout setup, kept on their users row. Bank numbers arrive here sealed; nothing here
 * sees them in the clear.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
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
  | { preferred_payment_method: 'stripe_connect'; stripe_connect_email: string; stripe_connect_status: 'pending' };

/** One UPDATE: the method's details, the preferred method and payouts on, all or nothing. Undefined when no such user. */
export function saveMethod(db: Kysely<DB>, userId: string, columns: MethodColumns): Promise<SetupRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...columns, payout_enabled: true, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .returning(SETUP_COLUMNS)
    .executeTakeFirst();
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
