/**
 * Step 1's form as data: what was typed for each method, the browser's check of it (the same
 * rules and messages as the server, spec section 5) and the body PUT /api/payouts/method takes.
 */
import {
  ACH_ACCOUNT_MAX_LENGTH,
  ACH_ACCOUNT_MIN_LENGTH,
  PAYOUT_MESSAGES,
  type PayoutMethodName,
  type SavePayoutMethodBody,
} from '../../../shared/schemas/payouts.ts';
import { abaChecksumValid, bankDigits } from '../../../shared/bank.ts';

export type AccountType = 'checking' | 'savings';

export interface MethodDraft {
  method: PayoutMethodName;
  paypalEmail: string;
  routingNumber: string;
  accountNumber: string;
  holderName: string;
  accountType: AccountType;
  stripeEmail: string;
}

export type DraftField = 'paypalEmail' | 'routingNumber' | 'accountNumber' | 'holderName' | 'stripeEmail';
export interface DraftProblem {
  field: DraftField;
  message: string;
}

export const EMPTY_DRAFT: MethodDraft = {
  method: 'paypal',
  paypalEmail: '',
  routingNumber: '',
  accountNumber: '',
  holderName: '',
  accountType: 'checking',
  stripeEmail: '',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec section 5: a basic address pattern. */
export function isValidEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** 9 digits whose ABA check digit is right, so a mistyped digit is caught before the payout fails. */
export function isValidRoutingNumber(value: string): boolean {
  return abaChecksumValid(bankDigits(value));
}

export function isValidAccountNumber(value: string): boolean {
  return new RegExp(`^\\d{${ACH_ACCOUNT_MIN_LENGTH},${ACH_ACCOUNT_MAX_LENGTH}}$`).test(bankDigits(value));
}

/** The first problem with the chosen method's fields, in the order they are shown; null when it can be saved. */
export function checkMethodDraft(draft: MethodDraft): DraftProblem | null {
  switch (draft.method) {
    case 'paypal':
      return isValidEmail(draft.paypalEmail) ? null : { field: 'paypalEmail', message: PAYOUT_MESSAGES.paypalEmail };
    case 'ach':
      if (!isValidRoutingNumber(draft.routingNumber)) return { field: 'routingNumber', message: PAYOUT_MESSAGES.routingNumber };
      if (!isValidAccountNumber(draft.accountNumber)) return { field: 'accountNumber', message: PAYOUT_MESSAGES.accountNumber };
      if (draft.holderName.trim() === '') return { field: 'holderName', message: PAYOUT_MESSAGES.holderName };
      return null;
    case 'stripe_connect':
      return isValidEmail(draft.stripeEmail) ? null : { field: 'stripeEmail', message: PAYOUT_MESSAGES.stripeEmail };
  }
}

/** The request body for the chosen method only: no other method's fields travel. */
export function toSaveBody(draft: MethodDraft): SavePayoutMethodBody {
  switch (draft.method) {
    case 'paypal':
      return { method: 'paypal', paypal_email: draft.paypalEmail.trim() };
    case 'ach':
      return {
        method: 'ach',
        routing_number: bankDigits(draft.routingNumber),
        account_number: bankDigits(draft.accountNumber),
        holder_name: draft.holderName.trim(),
        account_type: draft.accountType,
      };
    case 'stripe_connect':
      return { method: 'stripe_connect', email: draft.stripeEmail.trim() };
  }
}

/** The draft once sent or stored: the bank numbers leave the page's memory. */
export function withoutBankNumbers(draft: MethodDraft): MethodDraft {
  return { ...draft, routingNumber: '', accountNumber: '' };
}

/** The last 4 digits, the only part of a bank number shown once it is saved. */
export function lastFour(value: string): string {
  return bankDigits(value).slice(-4);
}

/** Step 2's payment email. */
export function checkTaxEmail(value: string): string | null {
  return isValidEmail(value) ? null : PAYOUT_MESSAGES.taxEmail;
}

/** An email the creator already typed in step 1, to start step 2 with. */
export function draftEmail(draft: MethodDraft): string {
  if (draft.method === 'paypal') return draft.paypalEmail.trim();
  if (draft.method === 'stripe_connect') return draft.stripeEmail.trim();
  return '';
}
