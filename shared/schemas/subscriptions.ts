/**
 * Subscriptions (spec sections 3, 4, 7 and 8): starting Pro through a hosted checkout, verifying
 * and activating a finished checkout from the provider's own record of it, managing the
 * subscription at the provider, and the tier a profile shows. The server keeps the state: it
 * changes only from the provider's verified events and verified sessions, never from what a
 * client sends (api/modules/subscriptions).
 */
import { Type, type Static } from 'typebox';
import { errorReplies, Timestamp } from './common.ts';
import { defineRoute } from './route.ts';

/** Spec section 8's messages for /subscription-success, and the routes' own. */
export const SUBSCRIPTION_MESSAGES = {
  signIn: 'Please sign in to view your instructions and personal link',
  /** Verification still not complete after 3 attempts. */
  unableToVerify: 'Unable to verify subscription. Please contact support.',
  /** The provider says the checkout did not go through (expired, or not a subscription). */
  verificationFailed: 'Payment verification failed',
  /** Verification could not be asked (network, server or provider failure). */
  verifyFailed: 'Failed to verify payment',
  /** Activation was refused or failed. */
  activateFailed: 'Failed to activate subscription',
  /** A checkout still open: the page asks again. */
  notCompleteYet: 'Payment not completed yet',
  verified: 'Payment verified',
  alreadyProcessed: 'Subscription already active',
  expired: 'This checkout expired without a payment',
  unknownSession: 'Checkout session not found',
  alreadySubscribed: 'You already have an active Pro subscription.',
  nothingToManage: 'You have no subscription to manage.',
  providerUnavailable: 'The payment service is not available just now. Please try again.',
  userNotFound: 'User not found',
  /** /approve-subscription (spec section 8): 'Verifying...' for APPROVAL_VERIFY_MS, then one of these. */
  approvalVerifying: 'Verifying...',
  approvalTitle: 'Subscription approval',
  approved: 'Subscription approved',
  /** POST /api/subscriptions/approve's reply on success. */
  approvedMessage: 'Your address is approved: FrameMerch updates will come to it.',
  /** Every refused link alike (missing, forged, another address's, used, expired, malformed), so a link cannot be probed. */
  approvalInvalid: 'This approval link is invalid or has expired.',
  approvalNewLinkHint: 'Approval links work once, for 24 hours. Ask for a new one below.',
  approvalNewLink: 'Send a new approval link',
  approvalTooManyAttempts: 'Too many invalid approval links. Please wait a while and try again.',
  /** The server could not be asked (network or server failure): the link may still be good. */
  approvalCheckFailed: 'We could not check this approval link just now. Please try again.',
} as const;

/** How long an approval link works: 24 hours from when it was sent, on the app's clock. */
export const SUBSCRIPTION_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
/** Spec section 9 ('approval verify 2 s'): the approval page shows 'Verifying...' at least this long. */
export const APPROVAL_VERIFY_MS = 2_000;

/** A subscription row's status (user_subscriptions.status). */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'incomplete', 'pending_approval'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SubscriptionTier = Type.Union([Type.Literal('free'), Type.Literal('pro')]);
const Tier = SubscriptionTier;
export const SubscriptionRowStatus = Type.Enum(SUBSCRIPTION_STATUSES);
const RowStatus = SubscriptionRowStatus;
const StripeStatus = Type.Union([Type.Literal('trialing'), Type.Literal('active'), Type.Literal('past_due'), Type.Literal('canceled'), Type.Literal('unpaid'), Type.Literal('incomplete'), Type.Literal('incomplete_expired'), Type.Literal('paused')]);
const NullableTime = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A user's own subscription, as the server holds it (Free with no row). */
export const SubscriptionView = Type.Object(
  {
    /** The tier the limits apply now (a Pro period ended more than 3 days ago without renewal counts as free). */
    tier: Tier,
    status: RowStatus,
    stripe_status: Type.Union([StripeStatus, Type.Null()]),
    trial_end: NullableTime,
    current_period_start: NullableTime,
    current_period_end: NullableTime,
    cancel_at_period_end: Type.Boolean(),
    stripe_subscription_id: NullableString,
    stripe_customer_id: NullableString,
    /** There is a customer at the provider to manage (POST /api/subscriptions/manage). */
    can_manage: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SubscriptionView = Static<typeof SubscriptionView>;

/** A provider's checkout session id (Stripe's cs_..., or the embedded provider's). */
const SessionId = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_-]+$' });

/**
 * Starts a subscription: the server opens a hosted checkout for the tier, for the signed-in user,
 * and answers where to send the browser. 409 while a live Pro subscription exists.
 */
export const subscriptionCheckoutRoute = defineRoute({
  method: 'POST',
  url: '/api/subscriptions/checkout',
  access: 'user',
  schema: {
    summary: "Opens a hosted checkout for a paid tier (with its free trial) and answers the checkout page's address",
    tags: ['subscriptions'],
    body: Type.Object({ tier: Type.Literal('pro') }, { additionalProperties: false }),
    response: {
      200: Type.Object({ success: Type.Literal(true), url: Type.String() }),
      ...errorReplies(400, 401, 409, 502),
    },
  },
});

/**
 * Spec: POST /api/subscriptions/activate {user_id, tier, status, stripe_subscription_id,
 * stripe_customer_id, trial_end}. Here the body is the checkout's session id alone: every other
 * field the spec lists is dropped unread (a client never says whose subscription it is, nor its
 * tier or status). The server asks the provider for the session and its subscription, checks the
 * session is the caller's own (another's answers 404, as an unknown one), and applies the
 * subscription through the same rules as the provider's events.
 */
export const activateSubscriptionRoute = defineRoute({
  method: 'POST',
  url: '/api/subscriptions/activate',
  access: 'user',
  schema: {
    summary: "Activates the caller's subscription from their finished checkout, as the payment provider reports it (any other body field is ignored)",
    tags: ['subscriptions'],
    body: Type.Object({ session_id: SessionId }, { additionalProperties: false }),
    response: {
      200: Type.Object({ success: Type.Literal(true), subscription: SubscriptionView }),
      ...errorReplies(400, 401, 404, 409, 502),
    },
  },
});

export const VerifySubscriptionReply = Type.Object(
  {
    /** The checkout is complete (or was processed already): go on to activation. */
    success: Type.Boolean(),
    /** open: not finished yet, ask again; expired: it never will be. */
    status: Type.Union([Type.Literal('complete'), Type.Literal('open'), Type.Literal('expired')]),
    subscription_id: NullableString,
    customer_id: NullableString,
    message: Type.String(),
  },
  { additionalProperties: false },
);
export type VerifySubscriptionReply = Static<typeof VerifySubscriptionReply>;

/** Spec: GET verify-subscription/{sessionId}. The session's own user only; anyone else's answers 404 as an unknown one. Writes nothing. */
export const verifySubscriptionRoute = defineRoute({
  method: 'GET',
  url: '/api/subscriptions/verify/:sessionId',
  access: 'user',
  schema: {
    summary: "Whether the caller's subscription checkout is complete, as the payment provider reports it",
    tags: ['subscriptions'],
    params: Type.Object({ sessionId: SessionId }, { additionalProperties: false }),
    response: {
      200: VerifySubscriptionReply,
      ...errorReplies(400, 401, 404, 502),
    },
  },
});

/** The signed-in user's own subscription (Free when there is none). */
export const mySubscriptionRoute = defineRoute({
  method: 'GET',
  url: '/api/subscriptions/me',
  access: 'user',
  schema: {
    summary: "The signed-in user's subscription: tier, status and period (Free when there is none)",
    tags: ['subscriptions'],
    response: {
      200: Type.Object({ success: Type.Literal(true), subscription: SubscriptionView }),
      ...errorReplies(401),
    },
  },
});

/** Where the subscriber cancels or changes their card, at the payment provider. */
export const manageSubscriptionRoute = defineRoute({
  method: 'POST',
  url: '/api/subscriptions/manage',
  access: 'user',
  schema: {
    summary: "The payment provider's page where the signed-in subscriber manages their subscription",
    tags: ['subscriptions'],
    response: {
      200: Type.Object({ success: Type.Literal(true), url: Type.String() }),
      ...errorReplies(401, 404, 502),
    },
  },
});

export const PublicSubscription = Type.Object(
  {
    success: Type.Literal(true),
    tier: Tier,
    status: RowStatus,
    isThirdTier: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PublicSubscription = Static<typeof PublicSubscription>;

/** Spec: {user subscription endpoint}/{username}/subscription, for profiles. Active creators only (others answer 404 'User not found', as their profile does). */
export const userSubscriptionRoute = defineRoute({
  method: 'GET',
  url: '/api/users/:username/subscription',
  access: 'public',
  schema: {
    summary: "A creator's tier for their profile (Free when they have no subscription)",
    tags: ['subscriptions'],
    params: Type.Object({ username: Type.String({ minLength: 1, maxLength: 60 }) }, { additionalProperties: false }),
    response: {
      200: PublicSubscription,
      ...errorReplies(400, 404),
    },
  },
});

/**
 * Where the embedded payment provider's manage pages live (Stripe's customer portal's stand-in,
 * used when no Stripe key is set): `${EMBEDDED_MANAGE_PATH}/{token}`, the token being the capability.
 */
export const EMBEDDED_MANAGE_PATH = '/pay/manage';

/**
 * The embedded provider's manage page, where POST /api/subscriptions/manage sends the subscriber:
 * a capability link (made by the provider's manageSubscriptionUrl) that anyone holding it may open.
 * An unknown, malformed or expired token answers the same 404 page.
 */
export const embeddedManagePageRoute = defineRoute({
  method: 'GET',
  url: '/pay/manage/:token',
  access: 'public',
  schema: {
    summary: "The embedded provider's subscription manage page (an HTML page: plan, status, next billing date, card's last 4; cancel, undo, change card)",
    tags: ['subscriptions'],
    params: Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
    querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
    response: { 200: Type.String({ description: 'text/html' }), 404: Type.String({ description: 'text/html' }) },
  },
});

/**
 * The manage page's form (from this site's own page only, else 403): cancel at the period's end,
 * undo that, or change the card; 303 back to the page. An unknown token answers 404.
 */
export const embeddedManageSubmitRoute = defineRoute({
  method: 'POST',
  url: '/pay/manage/:token',
  access: 'public',
  schema: {
    summary:
      'Changes an embedded subscription from its manage page (form post, from this site only): action=cancel (at the period end), resume, or card (card_number, expiry, cvc); redirects back to the page',
    tags: ['subscriptions'],
    params: Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
    body: Type.Object({
      action: Type.Optional(Type.String({ maxLength: 20 })),
      card_number: Type.Optional(Type.String({ maxLength: 1000 })),
      expiry: Type.Optional(Type.String({ maxLength: 1000 })),
      cvc: Type.Optional(Type.String({ maxLength: 1000 })),
    }),
    response: {
      400: Type.String({ description: 'text/html' }),
      402: Type.String({ description: 'text/html' }),
      403: Type.String({ description: 'text/html' }),
      404: Type.String({ description: 'text/html' }),
      409: Type.String({ description: 'text/html' }),
    },
  },
});

/**
 * Spec: /approve-subscription?email&token, the link in the approval email. The token is signed by
 * the server (it names the issued approval, its expiry and, through the signature, the address),
 * works until SUBSCRIPTION_APPROVAL_TTL_MS after it was sent, and once. Every refusal is the same
 * 400 (SUBSCRIPTION_MESSAGES.approvalInvalid), malformed bodies included, so a link cannot be
 * probed; refusals are counted per address, and past the limit the answer is 429.
 */
export const approveSubscriptionRoute = defineRoute({
  method: 'POST',
  url: '/api/subscriptions/approve',
  access: 'public',
  schema: {
    summary: "Approves an address for FrameMerch updates with the approval email's link (signed, 24 hours, single use)",
    tags: ['subscriptions'],
    body: Type.Object(
      {
        email: Type.String({ maxLength: 254 }),
        token: Type.String({ maxLength: 200 }),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), message: Type.String() }),
      ...errorReplies(400, 429),
    },
  },
});
