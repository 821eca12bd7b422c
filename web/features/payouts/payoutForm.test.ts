/** Step 1's checks: the spec's messages (section 5), exactly, for each kind of bad input; and what is sent. */
import { describe, expect, it } from 'vitest';
import { PAYOUT_MESSAGES } from '../../../shared/schemas/payouts.ts';
import { checkMethodDraft, checkTaxEmail, draftEmail, EMPTY_DRAFT, lastFour, toSaveBody, withoutBankNumbers, type MethodDraft } from './payoutForm.ts';

const ach = (change: Partial<MethodDraft> = {}): MethodDraft => ({
  ...EMPTY_DRAFT,
  method: 'ach',
  routingNumber: '021000021',
  accountNumber: '000123456789',
  holderName: 'Ada Lovelace',
  ...change,
});

describe('checkMethodDraft', () => {
  it.each([
    ['an empty PayPal email', { ...EMPTY_DRAFT, method: 'paypal', paypalEmail: '' }, 'paypalEmail', PAYOUT_MESSAGES.paypalEmail],
    ['a PayPal email without a domain', { ...EMPTY_DRAFT, method: 'paypal', paypalEmail: 'ada@example' }, 'paypalEmail', PAYOUT_MESSAGES.paypalEmail],
    ['a PayPal email with a space', { ...EMPTY_DRAFT, method: 'paypal', paypalEmail: 'ada lovelace@example.com' }, 'paypalEmail', PAYOUT_MESSAGES.paypalEmail],
    ['an 8-digit routing number', ach({ routingNumber: '02100002' }), 'routingNumber', PAYOUT_MESSAGES.routingNumber],
    ['a 10-digit routing number', ach({ routingNumber: '0210000210' }), 'routingNumber', PAYOUT_MESSAGES.routingNumber],
    ['a routing number with letters', ach({ routingNumber: '02100002A' }), 'routingNumber', PAYOUT_MESSAGES.routingNumber],
    ['a 3-digit account number', ach({ accountNumber: '123' }), 'accountNumber', PAYOUT_MESSAGES.accountNumber],
    ['an account number with letters', ach({ accountNumber: '12ab34' }), 'accountNumber', PAYOUT_MESSAGES.accountNumber],
    ['a blank holder name', ach({ holderName: '   ' }), 'holderName', PAYOUT_MESSAGES.holderName],
    ['an empty Stripe Connect email', { ...EMPTY_DRAFT, method: 'stripe_connect', stripeEmail: '' }, 'stripeEmail', PAYOUT_MESSAGES.stripeEmail],
    ['a Stripe Connect email without @', { ...EMPTY_DRAFT, method: 'stripe_connect', stripeEmail: 'ada.example.com' }, 'stripeEmail', PAYOUT_MESSAGES.stripeEmail],
  ] as const)('refuses %s with its message', (_case, draft, field, message) => {
    expect(checkMethodDraft(draft)).toEqual({ field, message });
  });

  it('quotes the spec word for word', () => {
    expect(PAYOUT_MESSAGES).toMatchObject({
      paypalEmail: 'Please enter a valid PayPal email address',
      routingNumber: 'Please enter a valid 9-digit routing number',
      accountNumber: 'Please enter a valid account number',
      holderName: 'Please enter the account holder name',
      stripeEmail: 'Please enter a valid email for Stripe Connect',
    });
  });

  it('checks the ACH fields in the order they are shown', () => {
    expect(checkMethodDraft(ach({ routingNumber: '1', accountNumber: '1', holderName: '' }))?.field).toBe('routingNumber');
    expect(checkMethodDraft(ach({ accountNumber: '1', holderName: '' }))?.field).toBe('accountNumber');
  });

  it('accepts bank numbers written with spaces and dashes, and valid emails around spaces', () => {
    expect(checkMethodDraft(ach({ routingNumber: ' 021-000 021 ', accountNumber: '0001 2345' }))).toBeNull();
    expect(checkMethodDraft({ ...EMPTY_DRAFT, method: 'paypal', paypalEmail: ' ada@example.com ' })).toBeNull();
    expect(checkMethodDraft({ ...EMPTY_DRAFT, method: 'stripe_connect', stripeEmail: 'ada@example.co.uk' })).toBeNull();
  });

  it('judges only the chosen method: other methods may hold anything', () => {
    expect(checkMethodDraft({ ...EMPTY_DRAFT, method: 'paypal', paypalEmail: 'ada@example.com', routingNumber: 'x' })).toBeNull();
  });
});

describe('toSaveBody', () => {
  it('sends the chosen method only, trimmed, with bank numbers as digits', () => {
    expect(toSaveBody({ ...EMPTY_DRAFT, method: 'paypal', paypalEmail: ' ada@example.com ', stripeEmail: 'x@y.z' })).toEqual({
      method: 'paypal',
      paypal_email: 'ada@example.com',
    });
    expect(toSaveBody(ach({ routingNumber: '021-000-021', accountNumber: '0001 2345 6789', holderName: ' Ada ', accountType: 'savings' }))).toEqual({
      method: 'ach',
      routing_number: '021000021',
      account_number: '000123456789',
      holder_name: 'Ada',
      account_type: 'savings',
    });
    expect(toSaveBody({ ...EMPTY_DRAFT, method: 'stripe_connect', stripeEmail: 'ada@example.com' })).toEqual({ method: 'stripe_connect', email: 'ada@example.com' });
  });

  it('forgets the bank numbers and shows only the last 4 digits', () => {
    expect(withoutBankNumbers(ach())).toMatchObject({ routingNumber: '', accountNumber: '', holderName: 'Ada Lovelace' });
    expect(lastFour('0001 2345-6789')).toBe('6789');
  });
});

describe('step 2', () => {
  it('refuses a bad payment email and starts from the email step 1 used', () => {
    expect(checkTaxEmail('nope')).toBe(PAYOUT_MESSAGES.taxEmail);
    expect(checkTaxEmail('ada@example.com')).toBeNull();
    expect(draftEmail({ ...EMPTY_DRAFT, method: 'paypal', paypalEmail: ' ada@example.com' })).toBe('ada@example.com');
    expect(draftEmail(ach())).toBe('');
  });
});
