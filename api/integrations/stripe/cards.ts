/**
 * Stripe's test cards as the embedded provider takes them, and its Stripe-like ids. Shared by
 * the payment-mode page (embedded.ts) and the subscriptions (embedded-billing.ts).
 *
 * - 4242 4242 4242 4242 pays, now and at every renewal;
 * - 4000 0000 0000 0002 is declined at once (the page refuses it);
 * - 4000 0000 0000 0341 attaches to the customer (a subscription with a trial starts with it)
 *   but every later charge of it fails, as Stripe's test card of that number does.
 */
import { randomInt } from 'node:crypto';

export const TEST_CARD = '4242424242424242';
export const DECLINED_CARD = '4000000000000002';
/** Attaches, then every charge fails (Stripe's "attaching this card succeeds, charges fail"). */
export const CHARGE_FAILS_CARD = '4000000000000341';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Stripe-like ids: a prefix and random letters and digits. */
export function randomId(prefix: string, length = 24): string {
  let s = prefix;
  for (let i = 0; i < length; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

export const CARD_MESSAGES = {
  email: 'Enter a valid email address.',
  number: 'Your card number is incomplete.',
  invalidNumber: 'Your card number is invalid.',
  expiry: "Your card's expiration date is incomplete.",
  expired: "Your card's expiration date is in the past.",
  cvc: "Your card's security code is incomplete.",
  declined: 'Your card was declined.',
  address: 'Your shipping address is incomplete.',
  notTestCard: 'Your card was declined. This payment page takes test cards only, such as 4242 4242 4242 4242.',
} as const;

/** The card fields of the page's form. */
export interface CardFields {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const digitsOf = (cardNumber: string) => cardNumber.replace(/[\s-]/g, '');

/** The refusal of an email address the receipt could not be sent to, else null. */
export function checkEmail(value: string): { status: 400; message: string } | null {
  const email = value.trim();
  return !email || email.length > 320 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? { status: 400, message: CARD_MESSAGES.email } : null;
}

/** The expiry as typed (MM / YY, MM/YYYY, ...), or null when it is not one. */
function parseExpiry(expiry: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  const month = m ? Number(m[1]) : 0;
  if (!m || month < 1 || month > 12) return null;
  return { month, year: m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]) };
}

/** Whether a card that expires at the end of month/year is still good at `at`. */
export function cardValidAt(exp: { month: number; year: number }, at: Date): boolean {
  // A card is good through the last day of its expiry month.
  return Date.UTC(exp.year, exp.month, 1) > at.getTime();
}

/** Checks the card as Stripe's test mode would: null when it may be charged, else the refusal. */
export function checkCard(input: CardFields, now = new Date()): { status: 400 | 402; message: string } | null {
  const number = digitsOf(input.cardNumber);
  if (!/^\d+$/.test(number) || number.length < 13 || number.length > 19) return { status: 400, message: CARD_MESSAGES.number };
  if (!luhn(number)) return { status: 400, message: CARD_MESSAGES.invalidNumber };
  const exp = parseExpiry(input.expiry);
  if (!exp) return { status: 400, message: CARD_MESSAGES.expiry };
  if (!cardValidAt(exp, now)) return { status: 400, message: CARD_MESSAGES.expired };
  if (!/^\d{3}$/.test(input.cvc.trim())) return { status: 400, message: CARD_MESSAGES.cvc };
  if (number === DECLINED_CARD) return { status: 402, message: CARD_MESSAGES.declined };
  if (number !== TEST_CARD) return { status: 402, message: CARD_MESSAGES.notTestCard };
  return null;
}

/** A card saved for later charges: what Stripe shows of it, and how the test card behaves when charged. */
export interface SavedCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  chargesFail: boolean;
}

/**
 * Checks a card to be saved on a customer (a subscription's checkout, the manage page): as
 * checkCard, except that 4000 0000 0000 0341 is taken too (it attaches; its charges fail
 * later). Answers the card to save, or the refusal.
 */
export function checkSavedCard(input: CardFields, now = new Date()): { card: SavedCard } | { status: 400 | 402; message: string } {
  const number = digitsOf(input.cardNumber);
  const refusal = checkCard(input, now);
  if (refusal && !(refusal.message === CARD_MESSAGES.notTestCard && number === CHARGE_FAILS_CARD)) return refusal;
  const exp = parseExpiry(input.expiry)!;
  return { card: { brand: 'visa', last4: number.slice(-4), expMonth: exp.month, expYear: exp.year, chargesFail: number === CHARGE_FAILS_CARD } };
}
