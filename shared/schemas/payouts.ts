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
/** Spec section 9: ACH routing numbers are 9 digits (with their ABA check digit: shared/bank.ts); an account number has at least 4 characters. */
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

/* ---- The payment portal and the monthly statement (spec section 2, payment portal) ---- */

/** Spec section 9: the portal lists the latest 10 earnings and the latest 5 payouts. */
export const PORTAL_RECENT_EARNINGS = 10;
export const PORTAL_RECENT_PAYOUTS = 5;

/** Texts of the portal and its statement that the spec leaves to us. */
export const PORTAL_MESSAGES = {
  statementMonth: 'Please choose a month, as YYYY-MM, that is not in the future.',
  creatorsOnly: 'The payment portal is for creator accounts.',
} as const;

export const PayoutStatus = Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('paid'), Type.Literal('failed')]);
export type PayoutStatus = Static<typeof PayoutStatus>;

/** A calendar day (UTC), YYYY-MM-DD. */
export const CalendarDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD (UTC)' });
/** A calendar month, YYYY-MM (years 2000 to 2999). */
export const STATEMENT_MONTH_PATTERN = '^2[0-9]{3}-(0[1-9]|1[0-2])$';

/** One earning record as the portal lists it: what was sold and the creator's share; nothing about the buyer. */
export const PortalEarning = Type.Object(
  {
    /** When it was credited (a sale) or taken back (a reversal, after a refund). */
    date: Type.String({ format: 'date-time' }),
    kind: Type.Union([Type.Literal('sale'), Type.Literal('reversal')]),
    source: Type.String(),
    product_name: Type.Union([Type.String(), Type.Null()]),
    video_title: Type.Union([Type.String(), Type.Null()]),
    /** The order's short reference (the first 8 characters of its id, upper case). */
    order_ref: Type.Union([Type.String(), Type.Null()]),
    /** Negative for a reversal. */
    creator_share_cents: Type.Integer(),
  },
  { additionalProperties: false },
);
export type PortalEarning = Static<typeof PortalEarning>;

export const PortalPayout = Type.Object(
  {
    date: CalendarDate,
    /** The month it pays for, YYYY-MM. */
    period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
    amount_cents: Type.Integer({ minimum: 0 }),
    fee_cents: Type.Integer({ minimum: 0 }),
    method: PayoutMethodName,
    status: PayoutStatus,
  },
  { additionalProperties: false },
);
export type PortalPayout = Static<typeof PortalPayout>;

/** What /payment-portal shows. All money in integer cents; bank numbers as their last 4 digits (PayoutSetup). */
export const PaymentPortal = Type.Object(
  {
    setup: PayoutSetup,
    /** The creator's share of every sale, net of reversals, since the account began. */
    total_earnings_cents: Type.Integer(),
    /** Earnings not yet in a payout (or in a failed one), net of reversals; negative after a refund of paid-out sales. */
    pending_payout_cents: Type.Integer(),
    payout_threshold_cents: Type.Integer({ minimum: 0 }),
    /** Payouts are set up and the pending balance has reached the threshold. */
    ready_for_payout: Type.Boolean(),
    /** The date of the latest paid payout. */
    last_payout_date: Type.Union([CalendarDate, Type.Null()]),
    /** The coming 1st of the month (UTC) when the balance would be paid then (ready_for_payout); else null ('Not scheduled'). */
    next_payout_date: Type.Union([CalendarDate, Type.Null()]),
    /** Newest first, at most PORTAL_RECENT_EARNINGS. */
    recent_earnings: Type.Array(PortalEarning, { maxItems: PORTAL_RECENT_EARNINGS }),
    /** Newest first, at most PORTAL_RECENT_PAYOUTS. */
    recent_payouts: Type.Array(PortalPayout, { maxItems: PORTAL_RECENT_PAYOUTS }),
  },
  { additionalProperties: false },
);
export type PaymentPortal = Static<typeof PaymentPortal>;

export const paymentPortalRoute = defineRoute({
  method: 'GET',
  url: '/api/payouts/portal',
  access: 'creator',
  schema: {
    summary: "The signed-in creator's payment portal: setup, balances, next payout, recent earnings and payouts",
    tags: ['payouts'],
    response: {
      200: Type.Object({ success: Type.Literal(true), ...PaymentPortal.properties }, { additionalProperties: false }),
      ...errorReplies(401, 403, 404),
    },
  },
});

export const payoutStatementRoute = defineRoute({
  method: 'GET',
  url: '/api/payouts/statement',
  access: 'creator',
  schema: {
    summary: "The signed-in creator's statement for a month (CSV): each earning and payout, then totals",
    tags: ['payouts'],
    querystring: Type.Object({ month: Type.String({ pattern: STATEMENT_MONTH_PATTERN, description: 'YYYY-MM, not in the future' }) }, { additionalProperties: false }),
    response: { 200: Type.String({ description: 'text/csv; an attachment named framemerch-statement-YYYY-MM.csv' }), ...errorReplies(400, 401, 403, 404) },
  },
});

/* ---- The monthly payout run, started by an admin (it also runs by itself on each 1st, and by `npm run payouts:run`) ---- */

export const PAYOUT_RUN_MESSAGES = {
  notDue: "That month's payout run is not due yet: the run of a month starts on its 1st (UTC) and pays the earnings made before it.",
  achFileNotFound: 'That month has no ACH payouts to send by NACHA file, so there is no file to download.',
  achNotConfigured: 'ACH payouts are not sent by NACHA file here (the NACHA_* settings are not configured), so there is no file to download.',
} as const;

/** A month as YYYY-MM (years 2000 to 2999). */
export const PAYOUT_RUN_PERIOD_PATTERN = '^2[0-9]{3}-(0[1-9]|1[0-2])$';

/** What one run did. */
export const PayoutRunSummary = Type.Object(
  {
    /** The period as its first day (YYYY-MM-01): it paid the earnings made before that day. */
    period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-01$' }),
    created: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0 }),
    submitted: Type.Integer({ minimum: 0 }),
    processing: Type.Integer({ minimum: 0 }),
    paid: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    /** Pending payouts whose method has no provider configured: a later run sends them. */
    waiting: Type.Integer({ minimum: 0 }),
    /** Payouts that could not be made or submitted just now (a provider unreachable, say): a later run does them. */
    errors: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type PayoutRunSummary = Static<typeof PayoutRunSummary>;

export const runPayoutsRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/payouts/run',
  access: 'admin',
  schema: {
    summary: "Runs the payouts of a period now (YYYY-MM: the run of that month's 1st, paying the earnings made before it); safe to repeat",
    tags: ['payouts', 'admin'],
    body: Type.Object({ period: Type.String({ pattern: PAYOUT_RUN_PERIOD_PATTERN, description: 'YYYY-MM, not after the current month' }) }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true), run: PayoutRunSummary }), ...errorReplies(400, 401, 403) },
  },
});

/** The month of a NACHA file, as a path parameter (YYYY-MM, as the run's). */
const AchPeriodParams = Type.Object(
  { period: Type.String({ pattern: PAYOUT_RUN_PERIOD_PATTERN, description: 'YYYY-MM: the period whose run made the ACH payouts' }) },
  { additionalProperties: false },
);

/**
 * The period's ACH payouts as one NACHA file (PPD credits), for an admin to upload to the
 * platform's bank. It holds the receivers' full bank numbers: it is never cached.
 */
export const achFileRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/payouts/ach/:period',
  access: 'admin',
  schema: {
    summary: "Downloads a period's ACH payouts as a NACHA file (PPD credits, 94-character records) to upload to the bank; the same payouts however often it is downloaded",
    tags: ['payouts', 'admin'],
    params: AchPeriodParams,
    response: {
      200: Type.String({ description: 'text/plain; an attachment named framemerch-ach-YYYY-MM.txt, never cached' }),
      ...errorReplies(400, 401, 403, 404),
    },
  },
});

/** The admin uploaded the period's NACHA file to the bank: its ACH payouts still processing are paid. */
export const confirmAchUploadRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/payouts/ach/:period/confirm',
  access: 'admin',
  schema: {
    summary: "Confirms that a period's NACHA file was uploaded to the bank: its ACH payouts still processing are paid (and their creators emailed); safe to repeat",
    tags: ['payouts', 'admin'],
    params: AchPeriodParams,
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        /** The entries this confirmation marked paid (0 when repeated). */
        confirmed: Type.Integer({ minimum: 0 }),
      }),
      ...errorReplies(400, 401, 403),
    },
  },
});

/* ---- The payout providers' webhooks and the embedded Stripe Connect onboarding page ---- */

const WebhookReceived = Type.Object({
  received: Type.Literal(true),
  /** Whether the event moved a payout (or a Connect account); a repeated or uninteresting event changes nothing. */
  applied: Type.Boolean(),
});

/**
 * Where PayPal announces payout outcomes (PAYMENT.PAYOUTS-ITEM.*, PAYMENT.PAYOUTSBATCH.*), and the
 * embedded payout provider its PayPal-format events. The body is not parsed by schema: the
 * signature is checked on its raw bytes.
 */
export const paypalPayoutsWebhookRoute = defineRoute({
  method: 'POST',
  url: '/api/webhooks/paypal-payouts',
  access: 'public',
  schema: {
    summary:
      "PayPal Payouts webhooks, verified by PayPal's verify-webhook-signature with PAYPAL_WEBHOOK_ID (the embedded payout provider's by its key); each event decides a payout at most once",
    tags: ['payouts'],
    response: { 200: WebhookReceived, ...errorReplies(400, 413, 415, 503) },
  },
});

/** Where Stripe announces Connect account changes and transfer outcomes, and the embedded payout provider its Stripe-format events. */
export const stripeConnectWebhookRoute = defineRoute({
  method: 'POST',
  url: '/api/webhooks/stripe-connect',
  access: 'public',
  schema: {
    summary:
      'Stripe Connect webhooks (account.updated, transfer.created, transfer.reversed, payout.paid, payout.failed), signed with the Stripe-Signature scheme (STRIPE_CONNECT_WEBHOOK_SECRET); each event takes effect at most once',
    tags: ['payouts'],
    response: { 200: WebhookReceived, ...errorReplies(400, 413, 415, 503) },
  },
});

/** The embedded payout provider's Stripe Connect onboarding page (used when Stripe Connect is not configured). */
export const connectOnboardingPageRoute = defineRoute({
  method: 'GET',
  url: '/pay/connect/:token',
  access: 'public',
  schema: {
    summary: "The embedded payout provider's Stripe Connect onboarding page (an HTML page: the account and a button to complete onboarding)",
    tags: ['payouts'],
    params: Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
    response: { 200: Type.String({ description: 'text/html' }), 404: Type.String({ description: 'text/html' }) },
  },
});

export const connectOnboardingSubmitRoute = defineRoute({
  method: 'POST',
  url: '/pay/connect/:token',
  access: 'public',
  schema: {
    summary: 'Completes (decision=complete) or leaves incomplete (decision=incomplete) an embedded Stripe Connect onboarding (form post); redirects to the return url',
    tags: ['payouts'],
    params: Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
    body: Type.Object({ decision: Type.Optional(Type.String({ maxLength: 20 })) }),
    response: { 400: Type.String({ description: 'text/html' }), 404: Type.String({ description: 'text/html' }) },
  },
});
