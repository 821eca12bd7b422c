/**
 * Creator payouts: the methods a creator can be paid by, and the payment setup (spec sections 2,
 * 3, 4 and 5). Bank numbers travel from the browser to the server once, when they are saved; no
 * reply ever holds more than their last 4 digits.
 */
import { Type, type Static } from 'typebox';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

/** Spec section 5, quoted exactly. */
export const PAYOUT_MESSAGES = {
  paypalEmail: 'Please enter a valid PayPal email address',
  routingNumber: 'Please enter a valid 9-digit routing number',
  accountNumber: 'Please enter a valid account number',
  holderName: 'Please enter the account holder name',
  stripeEmail: 'Please enter a valid email for Stripe Connect',
  // Step 2's payment email (the spec names no message of its own; the subscribe form's wording).
  taxEmail: 'Please enter a valid email address',
  notAuthenticated: 'User not authenticated',
  userNotFound: 'User not found in database',
  // Not in the spec: a method switched off (payment_method_options.is_available false) is refused.
  methodUnavailable: 'This payout method is not available right now. Please choose another one.',
  signInToAccessPortal: 'Please log in to access the payment portal.',
  minimumRequired: 'Min $50 required',
  readyForPayout: 'Ready for payout',
  notScheduled: 'Not scheduled',
  monthlyOnTheFirst: 'Monthly on the 1st',
} as const;

/** Spec section 9: the card processor (Stripe Connect) serves these countries. */
export const CARD_PROCESSOR_COUNTRIES = ['US', 'CA', 'GB', 'AU', 'DE', 'FR'] as const;
/** Spec section 9: ACH routing numbers are 9 digits; an account number has at least 4 characters. */
export const ACH_ROUTING_LENGTH = 9;
export const ACH_ACCOUNT_MIN_LENGTH = 4;
export const ACH_ACCOUNT_MAX_LENGTH = 17;
/** The default payout threshold (spec section 9: minimum $50). */
export const DEFAULT_PAYOUT_THRESHOLD_CENTS = 5000;

export const PayoutMethodName = Type.Union([Type.Literal('paypal'), Type.Literal('ach'), Type.Literal('stripe_connect')]);
export type PayoutMethodName = Static<typeof PayoutMethodName>;

/** One row of payment_method_options, as get_user_payment_methods answers it. */
export const PaymentMethodOption = Type.Object(
  {
    method_name: PayoutMethodName,
    display_name: Type.String(),
    description: Type.String(),
    /** Percentage fee, e.g. 2.9. */
    fees_percentage: Type.Number(),
    fees_fixed_cents: Type.Integer({ minimum: 0 }),
    processing_time_days: Type.Integer({ minimum: 0 }),
    min_payout_cents: Type.Integer({ minimum: 0 }),
    is_available: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PaymentMethodOption = Static<typeof PaymentMethodOption>;

export const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, e.g. US' });

/** get_user_payment_methods(user_country): the available methods that serve the country. */
export const paymentMethodsRoute = defineRoute({
  method: 'GET',
  url: '/api/payment-methods',
  access: 'public',
  schema: {
    summary: "The payout methods available in a country (get_user_payment_methods), in the site's order",
    tags: ['payouts'],
    querystring: Type.Object({ country: CountryCode }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true), methods: Type.Array(PaymentMethodOption) }), ...errorReplies(400) },
  },
});

/** What a creator's payout setup looks like from outside the server: bank numbers as their last 4 digits only. */
export const PayoutSetup = Type.Object(
  {
    preferred_payment_method: Type.Union([PayoutMethodName, Type.Null()]),
    payout_enabled: Type.Boolean(),
    paypal_email: Type.Union([Type.String(), Type.Null()]),
    ach: Type.Union([
      Type.Object(
        {
          routing_last4: Type.String({ pattern: '^[0-9]{4}$' }),
          account_last4: Type.String({ minLength: 4, maxLength: 4 }),
          account_type: Type.Union([Type.Literal('checking'), Type.Literal('savings')]),
          holder_name: Type.String(),
          verified: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    stripe_connect: Type.Union([
      Type.Object(
        {
          email: Type.String(),
          status: Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('restricted'), Type.Literal('disabled')]),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    /** Spec: the step-2 payment email is stored as tax_id. */
    tax_email: Type.Union([Type.String(), Type.Null()]),
    tax_info_verified: Type.Boolean(),
    payout_threshold_cents: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type PayoutSetup = Static<typeof PayoutSetup>;

export const payoutSetupRoute = defineRoute({
  method: 'GET',
  url: '/api/payouts/setup',
  access: 'creator',
  schema: {
    summary: "The signed-in creator's payout setup (bank numbers as their last 4 digits)",
    tags: ['payouts'],
    response: { 200: Type.Object({ success: Type.Literal(true), setup: PayoutSetup }), ...errorReplies(401, 403, 404) },
  },
});

/**
 * Step 1: one method and its details. Free text is validated by the server with the spec's messages.
 * The branches do not say additionalProperties: false: the server's validator removes additional
 * properties while it tries each branch of a union, so a branch that fails (PayPal's, for a body
 * that also carries a paypal_email) would strip the fields of the branch that should match. Extra
 * fields are harmless: the server reads only the fields of the chosen method.
 */
export const SavePayoutMethodBody = Type.Union([
  Type.Object({ method: Type.Literal('paypal'), paypal_email: Type.String({ maxLength: 320 }) }),
  Type.Object({
    method: Type.Literal('ach'),
    routing_number: Type.String({ maxLength: 64 }),
    account_number: Type.String({ maxLength: 64 }),
    holder_name: Type.String({ maxLength: 200 }),
    account_type: Type.Union([Type.Literal('checking'), Type.Literal('savings')]),
  }),
  Type.Object({ method: Type.Literal('stripe_connect'), email: Type.String({ maxLength: 320 }) }),
]);
export type SavePayoutMethodBody = Static<typeof SavePayoutMethodBody>;

export const savePayoutMethodRoute = defineRoute({
  method: 'PUT',
  url: '/api/payouts/method',
  access: 'creator',
  schema: {
    summary: 'Saves the payout method (step 1 of payment setup); turns payouts on',
    tags: ['payouts'],
    body: SavePayoutMethodBody,
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        setup: PayoutSetup,
        /** Stripe Connect: where the creator goes on to onboarding (for now /payment-setup?connect=pending, a page of this site). */
        onboarding_url: Type.Optional(Type.String()),
      }),
      ...errorReplies(400, 401, 403, 404),
    },
  },
});

export const saveTaxInfoRoute = defineRoute({
  method: 'PUT',
  url: '/api/payouts/tax-info',
  access: 'creator',
  schema: {
    summary: 'Saves the payment email of step 2 as tax_id, not yet verified',
    tags: ['payouts'],
    body: Type.Object({ email: Type.String({ maxLength: 320 }) }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true), setup: PayoutSetup }), ...errorReplies(400, 401, 403, 404) },
  },
});
