/**
 * What the buyer typed on the checkout page (ZIP, country, email, SMS consent), kept in this
 * tab's session storage as it is typed, so a declined card or a cancelled payment page that
 * sends the buyer back to /checkout finds every field as it was left. The cart keeps itself.
 */
import { CHECKOUT_COUNTRIES, DEFAULT_COUNTRY, type CheckoutCountry } from '../../../shared/schemas/checkout.ts';

export interface CheckoutDraft {
  zip: string;
  country: CheckoutCountry;
  email: string;
  smsConsent: boolean;
}

export const EMPTY_DRAFT: CheckoutDraft = { zip: '', country: DEFAULT_COUNTRY, email: '', smsConsent: false };
export const DRAFT_KEY = 'framemerch:checkout-draft';

type DraftStorage = Pick<Storage, 'getItem' | 'setItem'>;

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');

/** A stored draft, field by field; anything unreadable falls back to the empty form's value. */
export function parseDraft(raw: string | null): CheckoutDraft {
  let stored: unknown = null;
  try {
    stored = raw === null ? null : JSON.parse(raw);
  } catch {
    stored = null;
  }
  if (typeof stored !== 'object' || stored === null) return EMPTY_DRAFT;
  const r = stored as Record<string, unknown>;
  const country = CHECKOUT_COUNTRIES.find((c) => c === r.country) ?? DEFAULT_COUNTRY;
  // Consent is only ever what the buyer ticked: anything but true reads as not given.
  return { zip: text(r.zip, 20), country, email: text(r.email, 320), smsConsent: r.smsConsent === true };
}

function sessionStore(): DraftStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage turned off in the browser: the form still works, it is just not kept.
    return null;
  }
}

export function loadDraft(storage: DraftStorage | null = sessionStore()): CheckoutDraft {
  try {
    return parseDraft(storage?.getItem(DRAFT_KEY) ?? null);
  } catch {
    return EMPTY_DRAFT;
  }
}

export function saveDraft(draft: CheckoutDraft, storage: DraftStorage | null = sessionStore()): void {
  try {
    storage?.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // A full or blocked storage costs only the memory of the form.
  }
}
