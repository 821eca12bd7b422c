/**
 * Payouts: which methods a creator can be paid by, and the creator's payment setup (spec
 * sections 2, 4 and 5). Rules:
 *  - what the creator typed is checked with the spec's messages (PAYOUT_MESSAGES), after the
 *    spaces (and, in a routing number, dashes) people type are taken out;
 *  - bank numbers are sealed at once, with the user id as associated data, so a sealed value
 *    copied to another user's row does not open; only their last 4 digits are kept in the clear
 *    and only those ever leave the server;
 *  - saving a method writes its details, the preferred method and payout_enabled in one UPDATE.
 *    The other methods' details stay as they were (switching back needs no retyping);
 *    preferred_payment_method decides which one is paid.
 * Nothing here logs: a request body (and so a bank number) never reaches a log line.
 */
import type { Kysely } from 'kysely';
import {
  ACH_ACCOUNT_MAX_LENGTH,
  ACH_ACCOUNT_MIN_LENGTH,
  PAYOUT_MESSAGES,
  type PaymentMethodOption,
  type PayoutSetup,
  type SavePayoutMethodBody,
} from '../../../shared/schemas/payouts.ts';
import { abaChecksumValid, bankDigits } from '../../../shared/bank.ts';
import type { ConnectAccountUpdate, ConnectOnboarder } from '../../integrations/payouts/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import * as repo from './repository.ts';

/** What this module needs of app.sealedValues (platform/crypto/sealed-values.ts). */
export interface Sealer {
  seal(plaintext: string, associatedData: string): string;
}
export interface Opener {
  open(sealed: string, associatedData: string): string;
}

/**
 * Where a creator who chose Stripe Connect goes next when no onboarding is at hand (the module
 * without app.payoutProviders): a page of this site that says the connection is pending.
 */
export const STRIPE_CONNECT_ONBOARDING_PATH = '/payment-setup?connect=pending';
/** Where Stripe's (or the embedded provider's) onboarding sends the creator back to. */
export const STRIPE_CONNECT_RETURN_PATH = '/payment-setup?connect=return';

/** Stripe Connect onboarding (app.payoutProviders.onboarding) and this site's address, for its return link. */
export interface ConnectOnboardingDeps {
  onboarder: ConnectOnboarder;
  publicUrl: string;
}

/** A basic address pattern: something, @, something, a dot, something; no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX_LENGTH = 320;
const ACCOUNT = new RegExp(`^[0-9]{${ACH_ACCOUNT_MIN_LENGTH},${ACH_ACCOUNT_MAX_LENGTH}}$`);

function checkedEmail(value: string, message: string): string {
  const email = value.trim();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL.test(email)) throw AppError.badRequest(message);
  return email;
}

/** 9 digits with a right ABA check digit; spaces and dashes typed between them are dropped, anything else is refused. */
export function checkedRoutingNumber(value: string): string {
  const digits = bankDigits(value);
  if (!abaChecksumValid(digits)) throw AppError.badRequest(PAYOUT_MESSAGES.routingNumber);
  return digits;
}

/** 4 to 17 digits; spaces and dashes typed between them are dropped, anything else is refused. */
export function checkedAccountNumber(value: string): string {
  const digits = bankDigits(value);
  if (!ACCOUNT.test(digits)) throw AppError.badRequest(PAYOUT_MESSAGES.accountNumber);
  return digits;
}

function checkedHolderName(value: string): string {
  const name = value.trim();
  if (name.length === 0) throw AppError.badRequest(PAYOUT_MESSAGES.holderName);
  return name;
}

const last4 = (digits: string) => digits.slice(-4);

/** The methods available in a country, as get_user_payment_methods answers them (fees as a percentage). */
export async function paymentMethods(db: Kysely<DB>, country: string): Promise<PaymentMethodOption[]> {
  const rows = await repo.listAvailableMethods(db, country);
  return rows.map((r) => ({
    method_name: r.method_name,
    display_name: r.display_name,
    description: r.description,
    fees_percentage: r.fees_basis_points / 100,
    fees_fixed_cents: r.fees_fixed_cents,
    processing_time_days: r.processing_time_days,
    min_payout_cents: r.min_payout_cents,
    is_available: r.is_available,
  }));
}

/** The setup as it may leave the server: bank numbers as their last 4 digits only. */
function toSetup(row: repo.SetupRow): PayoutSetup {
  const ach =
    row.ach_routing_last4 !== null && row.ach_account_last4 !== null && row.ach_account_type !== null && row.ach_account_holder_name !== null
      ? {
          routing_last4: row.ach_routing_last4,
          account_last4: row.ach_account_last4,
          account_type: row.ach_account_type,
          holder_name: row.ach_account_holder_name,
          verified: row.bank_account_verified,
        }
      : null;
  const stripeConnect =
    row.stripe_connect_email !== null && row.stripe_connect_status !== null ? { email: row.stripe_connect_email, status: row.stripe_connect_status } : null;
  return {
    preferred_payment_method: row.preferred_payment_method,
    payout_enabled: row.payout_enabled,
    paypal_email: row.paypal_email,
    ach,
    stripe_connect: stripeConnect,
    tax_email: row.tax_id,
    tax_info_verified: row.tax_info_verified,
    payout_threshold_cents: Number(row.payout_threshold_cents),
  };
}

function found(row: repo.SetupRow | undefined): PayoutSetup {
  if (!row) throw AppError.notFound(PAYOUT_MESSAGES.userNotFound);
  return toSetup(row);
}

/** A creator's payout setup (bank numbers as their last 4 digits), or undefined when there is no such user. */
export async function payoutSetupOf(db: Kysely<DB>, userId: string): Promise<PayoutSetup | undefined> {
  const row = await repo.findSetup(db, userId);
  return row && toSetup(row);
}

/** The signed-in creator's setup; 404 'User not found in database' when the row has gone. */
export async function payoutSetup(db: Kysely<DB>, userId: string): Promise<PayoutSetup> {
  return found(await repo.findSetup(db, userId));
}

/** Checks what was typed for the method, seals what must be sealed, and answers the columns to write. */
function methodColumns(sealer: Sealer, userId: string, body: SavePayoutMethodBody): repo.MethodColumns {
  switch (body.method) {
    case 'paypal':
      return { preferred_payment_method: 'paypal', paypal_email: checkedEmail(body.paypal_email, PAYOUT_MESSAGES.paypalEmail) };
    case 'ach': {
      const routing = checkedRoutingNumber(body.routing_number);
      const account = checkedAccountNumber(body.account_number);
      const holder = checkedHolderName(body.holder_name);
      return {
        preferred_payment_method: 'ach',
        ach_routing_number_encrypted: sealer.seal(routing, userId),
        ach_routing_last4: last4(routing),
        ach_account_number_encrypted: sealer.seal(account, userId),
        ach_account_last4: last4(account),
        ach_account_holder_name: holder,
        ach_account_type: body.account_type,
        bank_account_verified: false,
      };
    }
    case 'stripe_connect':
      return {
        preferred_payment_method: 'stripe_connect',
        stripe_connect_email: checkedEmail(body.email, PAYOUT_MESSAGES.stripeEmail),
        stripe_connect_status: 'pending',
      };
  }
}

/**
 * Step 1: saves the method and its details and turns payouts on. A method that is not offered
 * just now is refused before anything typed is looked at. Stripe Connect: the creator's
 * account is made (or its link renewed) by the onboarding, its id stored with the status
 * 'pending' (kept as it is when the account is the one already stored), and the onboarding
 * link is answered.
 */
export async function savePayoutMethod(
  db: Kysely<DB>,
  sealer: Sealer,
  userId: string,
  body: SavePayoutMethodBody,
  connect?: ConnectOnboardingDeps,
): Promise<{ setup: PayoutSetup; onboardingUrl?: string }> {
  if (!(await repo.isMethodAvailable(db, body.method))) throw AppError.badRequest(PAYOUT_MESSAGES.methodUnavailable);
  const columns = methodColumns(sealer, userId, body);
  if (columns.preferred_payment_method !== 'stripe_connect') return { setup: found(await repo.saveMethod(db, userId, columns)) };
  if (!connect) return { setup: found(await repo.saveMethod(db, userId, columns)), onboardingUrl: STRIPE_CONNECT_ONBOARDING_PATH };
  const current = await repo.findConnectAccount(db, userId);
  if (!current) throw AppError.notFound(PAYOUT_MESSAGES.userNotFound);
  const returnUrl = `${connect.publicUrl}${STRIPE_CONNECT_RETURN_PATH}`;
  const onboarding = await connect.onboarder.createOnboarding(userId, columns.stripe_connect_email, returnUrl, { accountId: current.stripe_connect_account_id });
  const sameAccount = onboarding.accountId === current.stripe_connect_account_id && current.stripe_connect_status !== null;
  const setup = found(
    await repo.saveMethod(db, userId, {
      ...columns,
      stripe_connect_account_id: onboarding.accountId,
      stripe_connect_status: sameAccount ? current.stripe_connect_status! : 'pending',
    }),
  );
  return { setup, onboardingUrl: onboarding.url };
}

/**
 * account.updated: the Connect account's status on its creator's row (found by the user id in
 * the account's metadata, else by the account id). Idempotent: the same event again, or any
 * event saying what the row already says, changes nothing. Answers true when applied or
 * already applied, false for an account no creator has.
 */
export function applyConnectAccountUpdate(db: Kysely<DB>, update: ConnectAccountUpdate): Promise<boolean> {
  return repo.setConnectAccountStatus(db, update.userId, update.accountId, update.status);
}

/** Step 2: the payment email, stored as tax_id and not yet verified. */
export async function saveTaxInfo(db: Kysely<DB>, userId: string, email: string): Promise<PayoutSetup> {
  return found(await repo.saveTaxEmail(db, userId, checkedEmail(email, PAYOUT_MESSAGES.taxEmail)));
}

/**
 * A creator's bank account with its numbers opened, for the payout run to hand to the bank
 * (undefined without one). Never for a reply or a log line.
 */
export async function bankAccountOf(
  db: Kysely<DB>,
  opener: Opener,
  userId: string,
): Promise<{ routingNumber: string; accountNumber: string; holderName: string; accountType: 'checking' | 'savings' } | undefined> {
  const row = await repo.findSealedBankAccount(db, userId);
  if (!row?.ach_routing_number_encrypted || !row.ach_account_number_encrypted || !row.ach_account_holder_name || !row.ach_account_type) return undefined;
  return {
    routingNumber: opener.open(row.ach_routing_number_encrypted, userId),
    accountNumber: opener.open(row.ach_account_number_encrypted, userId),
    holderName: row.ach_account_holder_name,
    accountType: row.ach_account_type,
  };
}
