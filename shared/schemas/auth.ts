/**
 * Accounts: sessions, email and password, OpenID Connect sign-in, account deletion, mail.
 * Messages quoted here are the specification's; the server answers them and the web app shows them.
 */
import { Type, type Static } from 'typebox';
import { errorReplies, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

/**
 * Why a sign-in with the identity provider failed: the code its callback sends the browser home
 * with (`?login=error&reason=<code>`), and the words the page shows for it. The page shows only
 * these; text from a link (a provider's error_description, a crafted query) is never shown.
 */
export const SIGN_IN_FAILURES = {
  cancelled: 'The sign-in was cancelled at the identity provider.',
  provider: 'The identity provider could not sign you in. Please try again.',
  expired: 'This sign-in is not valid any more. Please try again.',
  unconfirmed: 'The identity provider did not confirm the sign-in. Please try again.',
  suspended: 'This account is suspended.',
  no_email: 'The identity provider did not share an email address.',
  password_account: 'An account with this email already exists. Sign in with your password instead.',
} as const;

export type SignInFailure = keyof typeof SIGN_IN_FAILURES;

export const AUTH_MESSAGES = {
  emailTaken: 'This email is already registered. Please sign in instead.',
  emailRequired: 'Please enter your email.',
  passwordRequired: 'Please enter your password.',
  invalidEmail: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 8 characters.',
  passwordTooLong: 'Password must be at most 200 characters.',
  /** Followed by the reason: the strength check's warning and first suggestion, or passwordTooWeakHint. */
  passwordTooWeak: 'This password is too easy to guess.',
  passwordTooWeakHint: 'Add more words or characters that are hard to guess.',
  badCredentials: 'Invalid email or password.',
  /** Sign-in and sign-up alike; the reply's Retry-After header says how many seconds to wait. */
  tooManyAttempts: 'Too many attempts. Please wait a while and try again.',
  suspended: 'This account is suspended.',
  sessionExpired: 'Your session expired. Please sign in again.',
  signInRequired: 'Please sign in to continue.',
  /** Spec section 8: an admin route called signed out. */
  notAuthenticated: 'Not authenticated.',
  adminRequired: 'Access denied. Admin privileges required.',
  accessDenied: 'Access denied.',
  crossSite: 'This request did not come from FrameMerch and was refused.',
  accountDeleted: 'Your account has been successfully deleted.',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

export const SessionUser = Type.Object({
  id: Uuid,
  email: Type.String(),
  username: Type.String(),
  display_name: Type.String(),
  role: Type.Union([Type.Literal('creator'), Type.Literal('customer')]),
  is_admin: Type.Boolean(),
  profile_image_url: Type.Union([Type.String(), Type.Null()]),
  /** The picture the identity provider gave, second in the avatar's fallback chain. */
  auth_picture_url: Type.Union([Type.String(), Type.Null()]),
});
export type SessionUser = Static<typeof SessionUser>;

const Credentials = Type.Object(
  {
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);

/** Spec section 7: { success, message, error, user }. */
const AuthReply = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  user: SessionUser,
});

export const signupRoute = defineRoute({
  method: 'POST',
  url: '/api/auth/signup',
  access: 'public',
  schema: {
    summary: 'Creates a customer account with email and password and signs it in',
    tags: ['auth'],
    body: Credentials,
    response: { 201: AuthReply, ...errorReplies(400, 403, 409, 429) },
  },
});

export const loginRoute = defineRoute({
  method: 'POST',
  url: '/api/auth/login',
  access: 'public',
  schema: {
    summary: 'Signs in with email and password',
    tags: ['auth'],
    body: Credentials,
    response: { 200: AuthReply, ...errorReplies(400, 401, 403, 429) },
  },
});

export const meRoute = defineRoute({
  method: 'GET',
  url: '/api/auth/me',
  access: 'public',
  schema: {
    summary: 'The signed-in user of this session: null when signed out, 401 SESSION_EXPIRED when the session has run out',
    tags: ['auth'],
    response: { 200: Type.Object({ success: Type.Literal(true), user: Type.Union([SessionUser, Type.Null()]) }), ...errorReplies(401) },
  },
});

export const logoutRoute = defineRoute({
  method: 'POST',
  url: '/api/auth/logout',
  access: 'public',
  schema: {
    summary: 'Ends this session and clears its cookie',
    tags: ['auth'],
    response: { 200: Type.Object({ success: Type.Literal(true) }), ...errorReplies(403) },
  },
});

const ReturnUrlQuery = Type.Object(
  { return_url: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);

export const oidcLoginRoute = defineRoute({
  method: 'GET',
  url: '/api/auth/google/login',
  access: 'public',
  schema: {
    summary: 'Starts sign-in with the identity provider (Google, or the embedded one); redirects there',
    tags: ['auth'],
    querystring: ReturnUrlQuery,
    response: { 302: Type.Null(), ...errorReplies(400, 503) },
  },
});

export const oidcCallbackRoute = defineRoute({
  method: 'GET',
  url: '/api/auth/google/callback',
  access: 'public',
  schema: {
    summary: 'Where the identity provider returns; signs in and redirects to the page the sign-in began on',
    tags: ['auth'],
    querystring: Type.Object(
      {
        code: Type.Optional(Type.String({ maxLength: 2000 })),
        state: Type.Optional(Type.String({ maxLength: 200 })),
        error: Type.Optional(Type.String({ maxLength: 200 })),
        error_description: Type.Optional(Type.String({ maxLength: 1000 })),
        iss: Type.Optional(Type.String({ maxLength: 500 })),
      },
      { additionalProperties: true },
    ),
    response: { 302: Type.Null() },
  },
});

export const deleteAccountRoute = defineRoute({
  method: 'DELETE',
  url: '/api/users/:id/delete-account',
  access: 'user',
  schema: {
    summary: 'Deletes an account (the user themself, or an admin): sessions, videos and files, payout details',
    tags: ['auth'],
    params: Type.Object({ id: Uuid }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String() }), ...errorReplies(400, 401, 403, 404) },
  },
});

const EmailBody = Type.Object({ email: Type.String({ maxLength: 254 }) }, { additionalProperties: false });
const Sent = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  /** With the embedded mailer only: the new message's secret page, for the browser that asked (see /dev/mail). */
  mail_link: Type.Optional(Type.String()),
});

export const welcomeEmailRoute = defineRoute({
  method: 'POST',
  url: '/api/send-welcome-email',
  access: 'public',
  schema: {
    summary: 'Queues the welcome email',
    tags: ['mail'],
    body: EmailBody,
    response: { 202: Sent, ...errorReplies(400, 429) },
  },
});

export const subscriptionEmailRoute = defineRoute({
  method: 'POST',
  url: '/api/send-subscription-email',
  access: 'public',
  schema: {
    summary: 'Queues the email with the subscription approval link',
    tags: ['mail'],
    body: EmailBody,
    response: { 202: Sent, ...errorReplies(400, 429) },
  },
});
