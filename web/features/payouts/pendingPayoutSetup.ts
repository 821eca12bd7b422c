/**
 * The new-user flow's payout details, kept in IndexedDB until the creator has an account, then
 * saved through the API and deleted. The entry may hold ACH numbers, so it lives no longer
 * than it must: deleted right after the method is saved, when the server refuses it for good,
 * and when it is older than a day.
 */
import { createStore, del, get, set } from 'idb-keyval';
import { saveTaxInfoRoute, savePayoutMethodRoute, type SavePayoutMethodBody } from '../../../shared/schemas/payouts.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { request } from '../../lib/api.ts';

export const PENDING_PAYOUT_KEY = 'pendingPayoutSetup';
export const PENDING_PAYOUT_VERSION = 1;
/** An entry not saved within a day is dropped unsent: bank numbers do not wait in the browser. */
export const PENDING_PAYOUT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface PendingPayoutSetup {
  version: typeof PENDING_PAYOUT_VERSION;
  savedAt: number;
  method: SavePayoutMethodBody;
  /** Step 2's payment email; absent when step 2 was skipped. */
  taxEmail?: string;
}

let store: ReturnType<typeof createStore> | null = null;
// One database per concern, opened on first use.
const db = () => (store ??= createStore('framemerch-pending-payouts', 'records'));

const METHODS: Record<SavePayoutMethodBody['method'], readonly string[]> = {
  paypal: ['paypal_email'],
  ach: ['routing_number', 'account_number', 'holder_name', 'account_type'],
  stripe_connect: ['email'],
};

function isMethodBody(value: unknown): value is SavePayoutMethodBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  const fields = METHODS[body.method as SavePayoutMethodBody['method']];
  return fields !== undefined && fields.every((f) => typeof body[f] === 'string');
}

/** A stored value as a usable entry; null when it is missing, malformed, from another version or too old. */
export function parsePending(value: unknown, now = Date.now()): PendingPayoutSetup | null {
  if (typeof value !== 'object' || value === null) return null;
  const entry = value as Partial<PendingPayoutSetup>;
  if (entry.version !== PENDING_PAYOUT_VERSION || typeof entry.savedAt !== 'number' || !isMethodBody(entry.method)) return null;
  if (now - entry.savedAt > PENDING_PAYOUT_MAX_AGE_MS || entry.savedAt > now) return null;
  if (entry.taxEmail !== undefined && typeof entry.taxEmail !== 'string') return null;
  return { version: entry.version, savedAt: entry.savedAt, method: entry.method, ...(entry.taxEmail !== undefined && { taxEmail: entry.taxEmail }) };
}

/** Step 1 in the new-user flow: a new entry, replacing any earlier one (and its step-2 email). */
export async function storePendingMethod(method: SavePayoutMethodBody): Promise<void> {
  const entry: PendingPayoutSetup = { version: PENDING_PAYOUT_VERSION, savedAt: Date.now(), method };
  await set(PENDING_PAYOUT_KEY, entry, db());
}

/** Step 2 in the new-user flow: adds the payment email to the entry step 1 made. False when there is none. */
export async function storePendingTaxEmail(email: string): Promise<boolean> {
  const entry = parsePending(await get(PENDING_PAYOUT_KEY, db()));
  if (!entry) return false;
  await set(PENDING_PAYOUT_KEY, { ...entry, taxEmail: email } satisfies PendingPayoutSetup, db());
  return true;
}

export function clearPendingPayoutSetup(): Promise<void> {
  return del(PENDING_PAYOUT_KEY, db());
}

export type FlushOutcome =
  | { result: 'none' }
  | { result: 'saved'; method: SavePayoutMethodBody['method']; onboardingUrl: string | null; taxEmailSaved: boolean | null }
  /** `kept`: the entry stays for the next sign-in (the server was not reached or not ready). */
  | { result: 'failed'; message: string; kept: boolean };

/** A refusal that sending again cannot change (the details themselves are wrong). */
const isFinalRefusal = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 408 && error.status !== 429;

async function flush(): Promise<FlushOutcome> {
  let stored: unknown;
  try {
    stored = await get(PENDING_PAYOUT_KEY, db());
  } catch {
    return { result: 'none' };
  }
  if (stored === undefined) return { result: 'none' };
  const entry = parsePending(stored);
  if (!entry) {
    await clearPendingPayoutSetup().catch(() => undefined);
    return { result: 'none' };
  }

  let onboardingUrl: string | null;
  try {
    const reply = await request(savePayoutMethodRoute, { body: entry.method });
    onboardingUrl = reply.onboarding_url ?? null;
  } catch (error) {
    const final = isFinalRefusal(error);
    if (final) await clearPendingPayoutSetup().catch(() => undefined);
    return { result: 'failed', message: error instanceof Error ? error.message : String(error), kept: !final };
  }
  // Saved: the bank numbers leave the browser before anything else happens.
  await clearPendingPayoutSetup().catch(() => undefined);

  let taxEmailSaved: boolean | null = null;
  if (entry.taxEmail !== undefined) {
    taxEmailSaved = await request(saveTaxInfoRoute, { body: { email: entry.taxEmail } }).then(
      () => true,
      () => false,
    );
  }
  return { result: 'saved', method: entry.method.method, onboardingUrl, taxEmailSaved };
}

let running: Promise<FlushOutcome> | null = null;

/**
 * Saves a pending entry for the signed-in creator and deletes it. Callers at the same time
 * (the page and the app shell) share one run, so nothing is sent twice.
 */
export function flushPendingPayoutSetup(): Promise<FlushOutcome> {
  running ??= flush().finally(() => {
    running = null;
  });
  return running;
}
