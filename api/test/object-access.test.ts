/**
 * The object table: every route that names an object (by id, storage key, slug, secret token,
 * session id or tracking number) or acts on the caller's own objects, tried by each actor:
 * anonymous, customer C, creator B, creator A and an admin. A and B each own a public, a pending
 * and a rejected video (pending and rejected ones are unlisted: their owner and the admins see
 * them on the video page and get their files, nobody else does), C bought merch made
 * from A's video (a paid order, so A has earnings), and a suspended creator S owns a video too.
 * ACH payouts go by NACHA file here (the NACHA_* settings): A has an ACH payout for last month,
 * still processing, in that period's file, and a PayPal payout of 2024 that failed (with a 2024
 * sale of A's, unpaid, for the admin to send it again with). A has a Pro trial (its row written as
 * its events leave it); a throwaway creator subscribed to Pro at the embedded provider, through the
 * routes, and its manage page's link (a capability, as /pay/:sessionId is) is tried as each actor.
 *
 * A row names the route (method and URL as API_ROUTES declares them), the object, its owner and
 * who may have it. For everyone else:
 *  - a role the route does not admit gets the role answer (401 signed out, 403 wrong role: the
 *    role table in access.test.ts owns those);
 *  - an `object` row's refusal must be exactly what the same caller gets for an object that does
 *    not exist (same status, normally 404, same content type, same body): a denial looks missing;
 *  - an `own` row (the session decides whose data it is) must answer the caller's own data, with
 *    none of the owner's markers in it;
 *  - after every refused request, what `state` reads straight from the database is unchanged.
 * The mass-assignment tests at the end send extra fields (role, is_admin, status, user_id, ...) in
 * every create and update body and check that the stored rows keep the server's values.
 *
 * To add a route: add a row below (the coverage test fails until every route with a path
 * parameter, and every route in OBJECT_ROUTES, has one). `ref` gives the object's reference for a
 * caller (for an allowed destructive request, a throwaway object made for the purpose), `absent` a
 * reference that names nothing, `build` the request for a reference.
 *
 * Payouts, when they arrive: make a payout for A in beforeAll (t.db.insertInto('payouts') with
 * user_id A, or through the route that requests one), then add
 *  - an `own` row for the list (GET /api/studio/payouts, say), owner 'A', may ['A'], secrets: the
 *    payout's id and amount, so B's and the admin's own lists are checked not to show it;
 *  - an `object` row per route with a :id (owner 'A', may ['A', 'admin'] or whatever the route
 *    promises), with `state` reading the payouts row for the writes (cancel, change the method);
 *  - the payout-detail fields (paypal_email, ach_*, tax_id) in the profile's mass-assignment case.
 * Admin routes, when they arrive: nothing to do for the role check (the row's access comes from
 * the route's declaration, and anyone but the admin gets 401/403 from it); add an `object` row
 * per route that names an object with may ['admin'], an owner, and `state` for each write; an
 * admin action on a missing object must answer as the table expects for a missing object (404).
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ORDER_MESSAGES } from '../../shared/schemas/admin-orders.ts';
import { ADMIN_PAYOUT_MESSAGES } from '../../shared/schemas/admin-payouts.ts';
import { API_ROUTES } from '../../shared/schemas/index.ts';
import type { Access, HttpMethod } from '../../shared/schemas/route.ts';
import { SUBSCRIPTION_MESSAGES } from '../../shared/schemas/subscriptions.ts';
import { unitPriceCents } from '../../shared/shop/pricing.ts';
import { createUser } from '../modules/accounts/index.ts';
import { lineEarning } from '../modules/earnings/index.ts';
import { bankAccountOf, payoutIdempotencyKey, payoutSetupOf, periodAt, recordPayoutOutcome } from '../modules/payouts/index.ts';
import { fulfilOrderKey } from '../platform/jobs/enqueue.ts';
import { createSession, SESSION_COOKIE } from '../platform/sessions/sessions.ts';
import { newKey } from '../platform/storage/object-storage.ts';
import { ORIGIN } from './browser.ts';
import { catalogueProduct, makeMerchProduct, testCard, variantOf } from './checkout-support.ts';
import { testApp, testConfig, type TestApp } from './harness.ts';
import { earn, payoutCreator, TEST_NACHA_ENV } from './payout-support.ts';
import { multipart, testMedia, uploadParts } from './upload-helpers.ts';

type Actor = 'anonymous' | 'C' | 'B' | 'A' | 'admin';
const ACTORS: readonly Actor[] = ['anonymous', 'C', 'B', 'A', 'admin'];
const EVERYONE: readonly Actor[] = ACTORS;
const NOBODY: readonly Actor[] = [];
const LABEL: Record<Actor, string> = { anonymous: 'anonymous', C: 'customer C', B: 'creator B', A: 'creator A', admin: 'admin' };
/** The role each actor signs in with (the admin is a customer with is_admin, as the seed makes one). */
const ROLE: Record<Actor, { role: 'customer' | 'creator'; admin: boolean } | null> = {
  anonymous: null,
  C: { role: 'customer', admin: false },
  B: { role: 'creator', admin: false },
  A: { role: 'creator', admin: false },
  admin: { role: 'customer', admin: true },
};

type Cookies = Record<string, string>;
/** An object's reference, or one with the session to send it with (a throwaway owner's). */
type Ref = string | { ref: string; cookies: Cookies };
type Req = InjectOptions & { url: string; method?: HttpMethod };

interface BaseRow {
  method: HttpMethod;
  /** The URL template exactly as API_ROUTES declares it. */
  url: string;
  /** What is asked for, for the test's name. */
  object: string;
  /** Whose object it is (null: nobody's, such as a capability link everyone holding it may use). */
  owner: Actor | null;
  /** Who gets the object (or may act on it). */
  may: readonly Actor[];
  /** Read straight from the database before and after a refused request: it must not change. */
  state?: () => Promise<unknown>;
  /** Checks on an allowed answer, beyond its being 2xx/3xx. */
  allowed?: (res: LightMyRequestResponse, as: Actor) => void | Promise<void>;
  /** Runs after the request whatever the outcome (to undo an allowed change later rows rely on). */
  after?: (as: Actor) => Promise<void>;
  /** A gap this table knows about and cannot close from here: the row is reported as a todo. */
  todo?: string;
}

/** A route that names its object: a refusal must look exactly like a missing object. */
interface ObjectRow extends BaseRow {
  kind: 'object';
  /** The object's reference for this caller (when `allowed` and destructive, a throwaway one). */
  ref: (as: Actor, allowed: boolean) => Ref | Promise<Ref>;
  /** A reference of the same shape that names nothing. */
  absent: () => string;
  build: (ref: string) => Req;
  /** The status a refusal and a missing object share, when not 404 (see the row's comment). */
  deniedStatus?: number;
}

/** A route whose object is whoever's session it is: the owner's data must not reach anyone else. */
interface OwnRow extends BaseRow {
  kind: 'own';
  request: (as: Actor) => Req | Promise<Req>;
  /** Strings only the owner's data holds. */
  secrets: () => string[];
  /** Checks on the answer a non-owner gets (their own data). */
  denied?: (res: LightMyRequestResponse, as: Actor) => void | Promise<void>;
}

type Row = ObjectRow | OwnRow;

/** Routes without a path parameter that still name an object (in the query or the body), or act on the caller's own. */
const OBJECT_ROUTES = new Set([
  'GET /api/video-info',
  'POST /api/capture-screenshot',
  'POST /api/capture-multiple-screenshots',
  'POST /api/create-product',
  'GET /api/studio/videos',
  'GET /api/studio/profile',
  'PATCH /api/studio/profile',
  'POST /api/users/ensure-exists',
  'POST /api/users/update-channel',
  'GET /api/studio/analytics',
  'GET /api/dev/mail',
  'GET /api/auth/me',
  'GET /api/payouts/setup',
  'PUT /api/payouts/method',
  'PUT /api/payouts/tax-info',
  'GET /api/payouts/portal',
  'GET /api/payouts/statement',
  'GET /api/subscriptions/me',
  'POST /api/subscriptions/activate',
  'POST /api/videos/resumable',
  'POST /api/subscriptions/approve',
]);

const hex = (n = 6) => randomBytes(n).toString('hex');
const uuid = () => randomUUID();

let t: TestApp;

interface Person {
  id: string;
  email: string;
  username: string;
  cookies: Cookies;
}
interface Videos {
  public: string;
  pending: string;
  rejected: string;
}

/** Everything the rows refer to, made in beforeAll. */
const fx = {
  people: {} as Record<'A' | 'B' | 'C' | 'S' | 'admin', Person>,
  videos: {} as Record<'A' | 'B', Videos> & { S: string; retired: string },
  titles: {} as Record<string, string>,
  keys: {} as Record<string, string>,
  products: {} as { a: string; b: string; retired: string },
  orders: {} as Record<'c' | 'other', { id: string; sessionId: string; token: string }>,
  mail: {} as Record<'c' | 'other', { id: string; token: string }>,
  /** The subscription approval link sent to C's address, as approvalRef makes it (never used here). */
  approval: '',
  tracking: '',
  /** A's payment setup: PayPal chosen, a bank account saved before it, and a payment email. */
  payouts: { paypal: '', holder: '', tax: '' },
  /** A's payout this month (amount in cents, distinctive), for the portal and the statement. */
  payout: { amount: 0, month: '' },
  /** A's ACH payout for last month (processing): its period (YYYY-MM-01), month (YYYY-MM), row and NACHA trace number. */
  ach: { period: '', month: '', payoutId: '', trace: '' },
  /** A's PayPal payout of an old period that failed (the one the refused admin payout retries aim at). */
  failedPayout: '',
  /** The throwaway period the admin's allowed confirmation pays (another creator's ACH payout), made by its row. */
  achThrowaway: { period: '', payoutId: '' },
  /** A creator's Stripe Connect onboarding at the embedded provider: its link token (the capability) and account. */
  connect: { token: '', accountId: '', userId: '' },
  /** A's Pro subscription (a trial), and the checkout session that started it, already processed. */
  subscription: { sessionId: '', subscriptionId: '', customerId: '' },
  /**
   * A subscription at the embedded provider (a throwaway creator's, not A's: A's row above is the
   * fixture the subscription rows read), and its manage page's link token (the capability); what
   * manageState read once it was made.
   */
  manage: { token: '', subscriptionId: '', customerId: '', before: undefined as unknown },
  png: Buffer.alloc(0),
  /** A's resumable uploads: one partly sent, one complete (never finished here); a clip for throwaway ones. */
  uploads: { partial: '', complete: '', clip: Buffer.alloc(0) as Buffer },
  pngDataUrl: '',
};

/** The signed-in person an actor is. */
function who(as: Actor): Person {
  if (as === 'anonymous') throw new Error('anonymous is nobody');
  return fx.people[as];
}

const videoKeyOf = (id: string) => fx.keys[id]!;
const mediaPath = (id: string) => `/media/videos/${videoKeyOf(id)}`;

async function person(email: string, displayName: string, role: 'creator' | 'customer'): Promise<Person> {
  const user = await createUser(t.db, { email, displayName, role, emailVerified: true });
  const { token } = await createSession(t.db, user.id, 1, {});
  return { id: user.id, email, username: user.username, cookies: { [SESSION_COOKIE]: token } };
}

async function video(userId: string, status: 'approved' | 'pending' | 'rejected', label: string): Promise<string> {
  const key = newKey('mp4');
  await t.storage.put('videos', key, Buffer.from(`not really a video: ${label}`));
  const title = `${label} ${hex(4)}`;
  const row = await t.db
    .insertInto('videos')
    .values({ user_id: userId, title, video_key: key, content_type: 'video/mp4', size_bytes: 1000, duration_ms: 5000, verification_status: status })
    .returning('id')
    .executeTakeFirstOrThrow();
  fx.keys[row.id] = key;
  fx.titles[row.id] = title;
  return row.id;
}

/** A request as `as` makes it: their session (unless the request brings its own), and this site's Origin on writes. */
function send(as: Actor, req: Req): Promise<LightMyRequestResponse> {
  const method = req.method ?? 'GET';
  const headers = { ...(method === 'GET' ? {} : { origin: ORIGIN }), ...(req.headers as Record<string, string> | undefined) };
  const cookies = req.cookies ?? (as === 'anonymous' ? undefined : who(as).cookies);
  return t.app.inject({ ...req, method, headers, ...(cookies ? { cookies } : {}) });
}

// Reads straight from the database, for `state`.
const videoRow = (id: string) => t.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
const userRow = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
const adminLogs = () => t.db.selectFrom('admin_logs').select(['action_type', 'target_id']).orderBy('id').execute();
const productsOf = (videoId: string) => t.db.selectFrom('merch_products').select('id').where('video_id', '=', videoId).execute();
const paymentState = async (orderId: string) => ({
  order: await orderRow(orderId),
  sessions: await t.db.selectFrom('embedded_payment_sessions').selectAll().where('order_id', '=', orderId).execute(),
  events: (await t.db.selectFrom('embedded_payment_events').select('id').execute()).length,
  history: await t.db.selectFrom('order_status_history').select(['to_status', 'reason']).where('order_id', '=', orderId).orderBy('id').execute(),
});

/** A user as the admin's actions would change it: the row, its videos, its sessions and the admin log about it. */
const adminUserState = async (id: string) => ({
  user: await userRow(id),
  videos: (await t.db.selectFrom('videos').select('id').where('user_id', '=', id).orderBy('id').execute()).map((r) => r.id),
  sessions: (await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', id).execute()).length,
  logs: (await t.db.selectFrom('admin_logs').select('id').where('target_id', '=', id).execute()).length,
});

/** A stand-in creator with a session of their own, for an account a request is allowed to delete. */
async function throwawayCreator(): Promise<Person> {
  return person(`throwaway-${hex()}@example.com`, 'Throwaway', 'creator');
}

/** The same token with its last character changed (still well-formed). */
const nudged = (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
/** A session id's neighbour: its last character one step along. */
const neighbourId = (id: string, step: number) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const last = alphabet.indexOf(id.slice(-1));
  return `${id.slice(0, -1)}${alphabet[(last + step + alphabet.length) % alphabet.length]}`;
};
/** An approval link, address and token, as one reference. */
const approvalRef = (link: { email: string; token: string }) => `${link.email} ${link.token}`;
/** Presents the approval link (with another address, when given) from the address `ip`. */
function approvalRequest(ref: string, ip: string, email?: string): Req {
  const [address, token] = ref.split(' ') as [string, string];
  return { method: 'POST', url: '/api/subscriptions/approve', payload: { email: email ?? address, token }, remoteAddress: ip };
}
/** A well-formed approval token, unexpired, that names nothing. */
const unknownApprovalToken = () => `${uuid()}.${Math.floor(Date.now() / 1000) + 3600}.${randomBytes(32).toString('base64url')}`;
let approvalSenders = 0;
/** Asks for an approval link for the address (from an address of its own) and reads it from the outbox. */
async function approvalLink(email: string): Promise<{ email: string; token: string }> {
  const res = await send('anonymous', { method: 'POST', url: '/api/send-subscription-email', payload: { email }, remoteAddress: `10.9.3.${++approvalSenders}` });
  expect(res.statusCode, res.body).toBe(202);
  const messageId = new URL(res.json().mail_link as string, ORIGIN).searchParams.get('message')!;
  const row = await t.db.selectFrom('email_outbox').select('payload').where('id', '=', messageId).executeTakeFirstOrThrow();
  const link = new URL(/http\S+/.exec(String((row.payload as { text: string }).text))![0]);
  return { email: link.searchParams.get('email')!, token: link.searchParams.get('token')! };
}
/** Every issued approval and approved address. */
const approvalState = async () => ({
  approvals: await t.db.selectFrom('subscription_approvals').selectAll().orderBy('id').execute(),
  approved: await t.db.selectFrom('subscription_approved_addresses').selectAll().orderBy('email').execute(),
});
const TUS = { 'tus-resumable': '1.0.0' };
/** First bytes an MP4 starts with (what the tus endpoint sniffs). */
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(20)]);
const uploadId = () => randomBytes(16).toString('hex');
function appendRequest(id: string, offset: number, bytes: Buffer): Req {
  return { method: 'PATCH', url: `/api/uploads/${id}`, headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, payload: bytes };
}
/** A resumable upload of A's, through the routes: created for `length` bytes, and `bytes` sent. */
async function uploadOfA(length: number, bytes: Buffer | null): Promise<string> {
  const res = await send('A', { method: 'POST', url: '/api/uploads', headers: { ...TUS, 'upload-length': String(length) } });
  expect(res.statusCode, res.body).toBe(201);
  const id = String(res.headers.location).split('/').pop()!;
  if (bytes) expect((await send('A', appendRequest(id, 0, bytes))).statusCode).toBe(204);
  return id;
}
/** The finish of an upload into a video: a multipart form built here (the thumbnail is the fixture PNG). */
function finishRequest(id: string): Req {
  const boundary = `----fm${hex(8)}`;
  const field = (name: string, value: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const payload = Buffer.concat([
    field('title', 'Finished upload'),
    field('description', 'From a resumable upload'),
    field('category', 'music'),
    field('upload_id', id),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="thumbnail"; filename="t.png"\r\nContent-Type: image/png\r\n\r\n`),
    fx.png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { method: 'POST', url: '/api/videos/resumable', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
/** What the server holds of an upload: its owner, size and bytes stored (null once gone). */
const uploadState = async (id: string) => {
  const info = await t.app.resumableUploads.find(id);
  return info && { owner: info.owner, size: info.size, offset: info.offset };
};

/** A well-formed onboarding link token that names nothing. */
const connectToken = () => randomBytes(24).toString('base64url');
/** The onboarding's account, its account.updated events, and its creator's connect columns. */
const connectState = async () => ({
  account: await t.db.selectFrom('embedded_connect_accounts').selectAll().where('id', '=', fx.connect.accountId).executeTakeFirst(),
  events: (await t.db.selectFrom('embedded_payout_events').select('id').where('type', '=', 'account.updated').where(sql<boolean>`payload->>'account' = ${fx.connect.accountId}`).execute()).length,
  user: await t.db.selectFrom('users').select(['stripe_connect_account_id', 'stripe_connect_status']).where('id', '=', fx.connect.userId).executeTakeFirst(),
});
/**
 * The platform bank's details (as ach.routes.test.ts has them). With them the app's ACH provider
 * records NACHA file entries instead of paying through the embedded provider, and the admin's
 * file route has a file to give; that is all they change, and nothing here runs the payout run,
 * so every other row answers as it did without them.
 */
const NACHA = TEST_NACHA_ENV;
/** A's bank account, saved through the payment setup in beforeAll (the NACHA file holds its full numbers). */
const A_BANK = { routing: '021000021', account: '000123456789' };

/**
 * An ACH payout of the creator's for the period, sent as the run's second phase sends one: the
 * payouts row (pending), the creator's saved bank account opened, the entry recorded by the
 * app's NACHA provider, and the payout moved to processing under the entry's trace number. (Not
 * the run itself: it would pay A's earnings too, and the portal and statement rows read those.)
 */
async function achPayout(userId: string, period: string, amountCents: number): Promise<{ id: string; trace: string }> {
  const fee = 60;
  const { id } = await t.db
    .insertInto('payouts')
    .values({ user_id: userId, amount_cents: amountCents, fee_cents: fee, method: 'ach', period, payout_date: period })
    .returning('id')
    .executeTakeFirstOrThrow();
  const bank = await bankAccountOf(t.db, t.sealedValues, userId);
  if (!bank) throw new Error(`creator ${userId} has no bank account saved`);
  const sent = await t.app.payoutProviders.nacha!.submit({
    payoutId: id,
    idempotencyKey: payoutIdempotencyKey(userId, period),
    userId,
    period,
    amountCents: amountCents - fee,
    currency: 'USD',
    destination: { method: 'ach', ...bank },
  });
  expect(sent.status).toBe('processing');
  expect(await recordPayoutOutcome({ db: t.db }, id, 'processing', { providerReference: sent.providerReference })).toMatchObject({ applied: true, status: 'processing' });
  return { id, trace: sent.providerReference };
}
/** A period's NACHA entries and payouts, straight from the database. */
const achState = async (period: string) => ({
  entries: await t.db.selectFrom('nacha_entries').selectAll().where(sql<boolean>`period = ${period}::date`).orderBy('trace_number').execute(),
  payouts: await t.db.selectFrom('payouts').selectAll().where('period', '=', period).orderBy('id').execute(),
});
/** A month (YYYY-MM) with no ACH payouts: no NACHA entries, so no file. */
const noAchMonth = () => `2001-${String(randomInt(1, 13)).padStart(2, '0')}`;
let throwawayAchMonths = 0;
/** A month of its own (YYYY-MM) with one ACH payout, still processing, of a throwaway creator's: for a confirmation that is allowed. */
async function throwawayAchMonth(): Promise<string> {
  const month = `2019-${String(++throwawayAchMonths).padStart(2, '0')}`;
  const creator = await payoutCreator(t.db, t.sealedValues, { method: 'ach' });
  const { id } = await achPayout(creator, `${month}-01`, 9_000);
  fx.achThrowaway = { period: `${month}-01`, payoutId: id };
  return month;
}

/** A's subscription row and the processed checkout sessions, straight from the database. */
const subscriptionState = async () => ({
  row: await t.db.selectFrom('user_subscriptions').selectAll().where('user_id', '=', fx.people.A.id).executeTakeFirst(),
  sessions: await t.db.selectFrom('subscription_checkout_sessions').selectAll().orderBy('session_id').execute(),
});
const subscriptionSessionId = () => `cs_test_${hex(12)}`;
/** A well-formed manage-page token that names nothing. */
const manageToken = () => randomBytes(24).toString('base64url');
/** The embedded subscription behind the manage link, its customer (card), and the events about either. */
const manageState = async () => {
  const { subscriptionId, customerId } = fx.manage;
  const events = await t.db.selectFrom('embedded_payment_events').select(['id', 'type', 'payload']).orderBy('id').execute();
  return {
    subscription: await t.db.selectFrom('embedded_subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirst(),
    customer: await t.db.selectFrom('embedded_customers').selectAll().where('id', '=', customerId).executeTakeFirst(),
    events: events
      .filter((e) => {
        const o = (e.payload as { data: { object: Record<string, unknown> } }).data.object;
        return o.id === subscriptionId || o.subscription === subscriptionId || o.id === customerId || o.customer === customerId;
      })
      .map((e) => `${e.id} ${e.type}`),
  };
};
/** The manage page's form, posting an action. */
function manageRequest(token: string, action: 'cancel' | 'resume'): Req {
  return { method: 'POST', url: `/pay/manage/${token}`, payload: `action=${action}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}

/**
 * An order of two shirts of `productId`, opened at checkout by `as` and paid on the embedded
 * payment page (its events go to the webhook, as beforeAll sets the delivery): the order, its
 * payment session and the order page's token.
 */
async function paidOrder(as: 'C' | 'anonymous', productId: string, email: string): Promise<{ id: string; sessionId: string; token: string }> {
  const shirt = catalogueProduct(t, 'unisex-tshirt');
  const open = await send(as, {
    method: 'POST',
    url: '/api/create-checkout-session',
    // Every extra field a tampered cart could carry: the server prices and attributes the order itself.
    payload: {
      shipping_address: { zip: '10001', country_code: 'US' },
      cart: [{ product_id: productId, variant_id: variantOf(shirt, 'M'), quantity: 2, selected_screenshot: 0, ...EXTRA() }],
      email,
      idempotency_key: `object-access-${hex()}`,
      ...EXTRA(),
    },
  });
  expect(open.statusCode, open.body).toBe(200);
  const { order_id: id, session_id: sessionId } = open.json() as { order_id: string; session_id: string };
  const paid = await send(as, { ...payRequest(sessionId), payload: new URLSearchParams(testCard('4242424242424242', { email })).toString() });
  expect(paid.statusCode, paid.body).toBe(303);
  const link = (await send('anonymous', { url: `/api/checkout/sessions/${sessionId}` })).json().order_url as string;
  return { id, sessionId, token: new URL(link, ORIGIN).searchParams.get('token')! };
}
/**
 * A paid order as fx.orders.c is one, for an admin action allowed to change it: merch of a
 * throwaway creator's (A's and B's earnings stay as the payout rows read them), bought by an
 * address of its own. (Another completed payment: the rows using it come after POST /pay/:sessionId's, which counts them.)
 */
async function throwawayPaidOrder(): Promise<string> {
  const product = await makeMerchProduct(t.db);
  const { id } = await paidOrder('anonymous', product.id, `throwaway-${hex()}@example.com`);
  expect((await orderRow(id))?.status).toBe('paid');
  return id;
}
/** A throwaway paid order whose fulfil job failed (set here: no job runner in these tests), for the admin's retry. */
async function throwawayFailedFulfilment(): Promise<string> {
  const id = await throwawayPaidOrder();
  const failed = await t.db
    .updateTable('jobs')
    .set({ status: 'failed', attempts: 12, last_error: 'the print shop is not answering' })
    .where('dedupe_key', '=', fulfilOrderKey(id))
    .where('status', '=', 'queued')
    .executeTakeFirst();
  expect(Number(failed.numUpdatedRows)).toBe(1);
  return id;
}
/**
 * What the admin's order actions change, straight from the database: the order row (status,
 * refunded_at, refund_requested_at), its history, its jobs (the fulfil job, a cancellation), its
 * creators' earnings and pending balances, and the admin log entries about it.
 */
const adminOrderState = async (orderId: string) => {
  const items = t.db.selectFrom('order_items').select('id').where('order_id', '=', orderId);
  const creators = t.db.selectFrom('order_items').select('creator_id').where('order_id', '=', orderId).where('creator_id', 'is not', null);
  return {
    order: await orderRow(orderId),
    history: await t.db.selectFrom('order_status_history').select(['from_status', 'to_status', 'reason']).where('order_id', '=', orderId).orderBy('id').execute(),
    jobs: await t.db.selectFrom('jobs').selectAll().where((eb) => eb.or([eb('dedupe_key', '=', fulfilOrderKey(orderId)), eb('dedupe_key', 'like', `%:${orderId}%`)])).orderBy('id').execute(),
    earnings: await t.db.selectFrom('earnings').selectAll().where('order_item_id', 'in', items).orderBy('id').execute(),
    balances: await t.db.selectFrom('users').select(['id', 'pending_payout_cents', 'total_earnings_cents']).where('id', 'in', creators).orderBy('id').execute(),
    logs: (await t.db.selectFrom('admin_logs').select('id').where('target_id', '=', orderId).execute()).length,
  };
};
/** Asks, as the admin, for an order that does not exist (`absent`): 404 'Order not found.', as the table expects for a missing object. */
async function expectNoSuchOrder(req: Req): Promise<void> {
  const none = await send('admin', req);
  expect(none.statusCode, none.body).toBe(404);
  expect(none.json()).toEqual({ success: false, error: ADMIN_ORDER_MESSAGES.orderNotFound, code: 'NOT_FOUND' });
}
/** A failed payout of a throwaway creator's (PayPal), with earnings from before its period's cut-off to send again. */
async function throwawayFailedPayout(): Promise<string> {
  const creator = await payoutCreator(t.db, t.sealedValues, { method: 'paypal' });
  await earn(t.db, creator, 10_000, new Date('2024-12-15T00:00:00Z'));
  const row = await t.db
    .insertInto('payouts')
    .values({ user_id: creator, amount_cents: 7000, method: 'paypal', period: '2025-01-01', payout_date: '2025-01-01', status: 'failed' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
/** A payout as the admin's retry would change it: the row, its creator's balance, the earnings it holds, and the admin log about it. */
const adminPayoutState = async (payoutId: string) => {
  const payout = await t.db.selectFrom('payouts').selectAll().where('id', '=', payoutId).executeTakeFirst();
  return {
    payout,
    balance: payout?.user_id ? (await userRow(payout.user_id))?.pending_payout_cents : null,
    held: (await t.db.selectFrom('earnings').select('id').where('payout_id', '=', payoutId).execute()).length,
    logs: (await t.db.selectFrom('admin_logs').select('id').where('target_id', '=', payoutId).execute()).length,
  };
};

const trackingNeighbour = (n: string, step: number) => `FM${String(Number(n.slice(2)) + step).padStart(12, '0')}`;

const newSlugFor = (as: Actor) => `renamed${as.toLowerCase()}${hex(2)}`;

function videoRows(owner: 'A' | 'B'): Row[] {
  const v = () => fx.videos[owner];
  const other = owner === 'A' ? 'B' : 'A';
  return [
    {
      kind: 'object',
      method: 'GET',
      url: '/api/videos/:id',
      object: `${owner}'s public video`,
      owner,
      may: EVERYONE,
      ref: () => v().public,
      absent: uuid,
      build: (id) => ({ url: `/api/videos/${id}` }),
      allowed: (res) => expect(res.json().video).toMatchObject({ id: v().public, user_id: fx.people[owner].id }),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/api/videos/:id',
      object: `${owner}'s pending video (unlisted while it awaits review: its owner and the admins see it)`,
      owner,
      may: [owner, 'admin'],
      ref: () => v().pending,
      absent: uuid,
      build: (id) => ({ url: `/api/videos/${id}` }),
      allowed: (res) => expect(res.json().video.id).toBe(v().pending),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/api/videos/:id',
      object: `${owner}'s rejected video (hidden from all but its owner and the admins)`,
      owner,
      may: [owner, 'admin'],
      ref: () => v().rejected,
      absent: uuid,
      build: (id) => ({ url: `/api/videos/${id}` }),
      allowed: (res) => expect(res.json().video).toMatchObject({ id: v().rejected, verification_status: 'rejected' }),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/api/video-info',
      object: `${owner}'s rejected video, by id`,
      owner,
      may: NOBODY,
      ref: () => v().rejected,
      absent: uuid,
      build: (id) => ({ url: `/api/video-info?id=${id}` }),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/api/video-info',
      object: `${owner}'s rejected video, by its URL`,
      owner,
      may: NOBODY,
      ref: () => videoKeyOf(v().rejected),
      absent: () => newKey('mp4'),
      build: (key) => ({ url: `/api/video-info?video_url=${encodeURIComponent(`/media/videos/${key}`)}` }),
      // A URL naming no stored video is refused as naming none (400); a hidden one answers the same.
      deniedStatus: 400,
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/api/videos/:id/views',
      object: `${owner}'s public video`,
      owner,
      may: EVERYONE,
      ref: () => v().public,
      absent: uuid,
      build: (id) => ({ method: 'POST', url: `/api/videos/${id}/views` }),
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/api/videos/:id/views',
      object: `${owner}'s rejected video`,
      owner,
      may: NOBODY,
      ref: () => v().rejected,
      absent: uuid,
      build: (id) => ({ method: 'POST', url: `/api/videos/${id}/views` }),
      state: async () => ({ video: await videoRow(v().rejected), views: await t.db.selectFrom('video_views').selectAll().where('video_id', '=', v().rejected).execute() }),
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/api/capture-screenshot',
      object: `a frame of ${owner}'s rejected video`,
      owner,
      may: NOBODY,
      ref: () => videoKeyOf(v().rejected),
      absent: () => newKey('mp4'),
      build: (key) => ({ method: 'POST', url: '/api/capture-screenshot', payload: { video_url: `/media/videos/${key}`, timestamp: 1 } }),
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/api/capture-multiple-screenshots',
      object: `frames of ${owner}'s rejected video`,
      owner,
      may: NOBODY,
      ref: () => videoKeyOf(v().rejected),
      absent: () => newKey('mp4'),
      build: (key) => ({ method: 'POST', url: '/api/capture-multiple-screenshots', payload: { video_url: `/media/videos/${key}`, timestamps: [1, 2] } }),
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/api/create-product',
      object: `merch from ${owner}'s rejected video`,
      owner,
      may: NOBODY,
      ref: () => videoKeyOf(v().rejected),
      absent: () => newKey('mp4'),
      build: (key) => ({ method: 'POST', url: '/api/create-product', payload: { videoUrl: `/media/videos/${key}`, screenshots: [fx.pngDataUrl] } }),
      // The page's one refusal for a video it cannot use (400), the same for none at all.
      deniedStatus: 400,
      state: async () => ({ products: await productsOf(v().rejected), all: (await t.db.selectFrom('merch_products').select('id').execute()).length }),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/media/:bucket/*',
      object: `${owner}'s public video's file`,
      owner,
      may: EVERYONE,
      ref: () => videoKeyOf(v().public),
      absent: () => newKey('mp4'),
      build: (key) => ({ url: `/media/videos/${key}` }),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/media/:bucket/*',
      object: `${owner}'s rejected video's file`,
      owner,
      may: [owner, 'admin'],
      ref: () => videoKeyOf(v().rejected),
      absent: () => newKey('mp4'),
      build: (key) => ({ url: `/media/videos/${key}` }),
      // Served to its owner and the admins only, so never cached on the way.
      allowed: (res) => expect(res.headers['cache-control']).toBe('private, no-store'),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/media/:bucket/*',
      object: `${owner}'s pending video's file`,
      owner,
      may: [owner, 'admin'],
      ref: () => videoKeyOf(v().pending),
      absent: () => newKey('mp4'),
      build: (key) => ({ url: `/media/videos/${key}` }),
      allowed: (res) => expect(res.headers['cache-control']).toBe('private, no-store'),
    },
    {
      kind: 'object',
      method: 'DELETE',
      url: '/api/videos/:id',
      object: `${owner}'s public video`,
      owner,
      may: [owner, 'admin'],
      // Allowed callers delete a throwaway video of the owner's; the refused ones aim at the real one.
      ref: (_as, allowed) => (allowed ? video(fx.people[owner].id, 'approved', `${owner} throwaway`) : v().public),
      absent: uuid,
      build: (id) => ({ method: 'DELETE', url: `/api/videos/${id}` }),
      state: async () => ({ row: await videoRow(v().public), file: await t.storage.stat('videos', videoKeyOf(v().public)) }),
      allowed: async (res) => {
        expect(res.json()).toEqual({ success: true });
        expect(await videoRow(v().public)).toBeDefined();
      },
    },
    {
      kind: 'object',
      method: 'DELETE',
      url: '/api/videos/:id',
      object: `${owner}'s rejected video`,
      owner,
      may: [owner, 'admin'],
      ref: (_as, allowed) => (allowed ? video(fx.people[owner].id, 'rejected', `${owner} throwaway`) : v().rejected),
      absent: uuid,
      build: (id) => ({ method: 'DELETE', url: `/api/videos/${id}` }),
      state: async () => ({ row: await videoRow(v().rejected), file: await t.storage.stat('videos', videoKeyOf(v().rejected)) }),
    },
    {
      kind: 'object',
      method: 'DELETE',
      url: '/api/users/:id/delete-account',
      object: `${owner}'s account`,
      owner,
      may: [owner, 'admin'],
      // The owner deletes a throwaway account of their own (with its own session), the admin a throwaway too.
      ref: async (as, allowed) => {
        if (!allowed) return fx.people[owner].id;
        const stand = await throwawayCreator();
        return as === 'admin' ? stand.id : { ref: stand.id, cookies: stand.cookies };
      },
      absent: uuid,
      build: (id) => ({ method: 'DELETE', url: `/api/users/${id}/delete-account` }),
      // Not the caller's own account: for anyone but an admin that is decided on the id alone, before
      // any look-up, so an existing and a missing account both answer 403 'Access denied.' (the
      // role table holds that answer); the admin alone looks the account up, and gets 404 for none.
      deniedStatus: 403,
      state: async () => ({
        user: await userRow(fx.people[owner].id),
        videos: (await t.db.selectFrom('videos').select('id').where('user_id', '=', fx.people[owner].id).orderBy('id').execute()).map((r) => r.id),
        sessions: (await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', fx.people[owner].id).execute()).length,
      }),
      allowed: (res) => expect(res.json()).toMatchObject({ success: true }),
    },
    {
      // Swapped: the other creator's video, by the owner of this group, is refused the same way.
      kind: 'object',
      method: 'GET',
      url: '/api/videos/:id',
      object: `${other}'s rejected video asked for beside ${owner}'s public one`,
      owner: other,
      may: [other, 'admin'],
      ref: () => fx.videos[other].rejected,
      absent: uuid,
      build: (id) => ({ url: `/api/videos/${id}` }),
    },
  ];
}

const TABLE: Row[] = [
  ...videoRows('A'),
  ...videoRows('B'),
  {
    kind: 'object',
    method: 'GET',
    url: '/api/videos/:id',
    object: "suspended creator S's video",
    owner: null,
    may: NOBODY,
    ref: () => fx.videos.S,
    absent: uuid,
    build: (id) => ({ url: `/api/videos/${id}` }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/video-info',
    object: "suspended creator S's video, by its URL",
    owner: null,
    may: NOBODY,
    ref: () => videoKeyOf(fx.videos.S),
    absent: () => newKey('mp4'),
    build: (key) => ({ url: `/api/video-info?video_url=${encodeURIComponent(`/media/videos/${key}`)}` }),
    deniedStatus: 400,
  },

  // Moderation and settings (admin only): allowed, the admin acts on a throwaway video of A's; a
  // refused request leaves the real one, and the admin log, as they were.
  ...(
    [
      ['approve', 'POST', (id: string) => `/api/admin/videos/${id}/approve`, 'pending', 'approved'],
      ['reject', 'POST', (id: string) => `/api/admin/videos/${id}/reject`, 'pending', 'rejected'],
      ['delete', 'DELETE', (id: string) => `/api/admin/videos/${id}`, 'approved', null],
    ] as const
  ).map(([verb, method, path, from, to]): Row => ({
    kind: 'object',
    method,
    url: path(':id'),
    object: `A's ${from} video, to ${verb}`,
    owner: 'A',
    may: ['admin'],
    ref: (_as, allowed) => (allowed ? video(fx.people.A.id, from, `A throwaway ${verb}`) : from === 'pending' ? fx.videos.A.pending : fx.videos.A.public),
    absent: uuid,
    build: (id) => ({ method, url: path(id) }),
    state: async () => {
      const id = from === 'pending' ? fx.videos.A.pending : fx.videos.A.public;
      return { row: await videoRow(id), file: await t.storage.stat('videos', videoKeyOf(id)), logs: await adminLogs() };
    },
    allowed: (res) => (to ? expect(res.json().video).toMatchObject({ verification_status: to }) : expect(res.json()).toEqual({ success: true })),
  })),
  {
    kind: 'object',
    method: 'PUT',
    url: '/api/admin/settings/:key',
    object: 'the maintenance banner setting',
    owner: null,
    may: ['admin'],
    ref: () => 'maintenance_banner',
    absent: () => `no_such_setting_${hex(3)}`,
    build: (key) => ({ method: 'PUT', url: `/api/admin/settings/${key}`, payload: { value: '' } }),
    state: async () => ({ settings: await t.db.selectFrom('admin_settings').select(['key', 'value']).orderBy('key').execute(), logs: await adminLogs() }),
    allowed: (res) => expect(res.json().settings).toMatchObject({ maintenance_banner: '' }),
  },

  // Channels: slugs are handed out in sequence (maker, maker2, maker3, ...), so the neighbours of a
  // public channel are tried: the suspended creator's and the customer's must look like no channel.
  ...(['/api/channels/:slug', '/api/profiles/:slug'] as const).flatMap((url): Row[] => {
    const build = (slug: string) => ({ url: url.replace(':slug', slug) });
    const absent = () => `nochannel${hex(3)}`;
    return [
      { kind: 'object', method: 'GET', url, object: "A's channel (slug n)", owner: 'A', may: EVERYONE, ref: () => fx.people.A.username, absent, build },
      { kind: 'object', method: 'GET', url, object: "B's channel (slug n+1)", owner: 'B', may: EVERYONE, ref: () => fx.people.B.username, absent, build },
      { kind: 'object', method: 'GET', url, object: "suspended S's channel (slug n+2)", owner: null, may: NOBODY, ref: () => fx.people.S.username, absent, build },
      { kind: 'object', method: 'GET', url, object: "customer C's account (slug n+3): customers have no channel", owner: 'C', may: NOBODY, ref: () => fx.people.C.username, absent, build },
      { kind: 'object', method: 'GET', url, object: "the admin's account: no channel either", owner: 'admin', may: NOBODY, ref: () => fx.people.admin.username, absent, build },
    ];
  }),

  // Merch products are public pages; a product outlives a video that is hidden later, without naming its file.
  {
    kind: 'object',
    method: 'GET',
    url: '/api/product/:productId',
    object: "merch C made from A's video",
    owner: 'A',
    may: EVERYONE,
    ref: () => fx.products.a,
    absent: uuid,
    build: (id) => ({ url: `/api/product/${id}` }),
    allowed: (res) => expect(res.json().product).toMatchObject({ id: fx.products.a, video_id: fx.videos.A.public, video_url: mediaPath(fx.videos.A.public) }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/product/:productId',
    object: "merch made from A's video that was rejected since",
    owner: 'A',
    may: EVERYONE,
    ref: () => fx.products.retired,
    absent: uuid,
    build: (id) => ({ url: `/api/product/${id}` }),
    allowed: (res) => {
      expect(res.json().product).toMatchObject({ id: fx.products.retired, video_url: null });
      expect(res.body).not.toContain(videoKeyOf(fx.videos.retired));
    },
  },

  // Orders: the order page opens with the order's own secret token only, whoever holds it.
  {
    kind: 'object',
    method: 'GET',
    url: '/api/orders/:id',
    object: "C's paid order, with its own token",
    owner: 'C',
    may: EVERYONE,
    ref: () => fx.orders.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/orders/${id}?token=${fx.orders.c.token}` }),
    allowed: (res) => expect(res.json().order).toMatchObject({ id: fx.orders.c.id, status: 'paid' }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/orders/:id',
    object: "C's paid order, with the other order's token (swapped)",
    owner: 'C',
    may: NOBODY,
    ref: () => fx.orders.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/orders/${id}?token=${fx.orders.other.token}` }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/orders/:id',
    object: "the other buyer's order, with C's token (swapped)",
    owner: null,
    may: NOBODY,
    ref: () => fx.orders.other.id,
    absent: uuid,
    build: (id) => ({ url: `/api/orders/${id}?token=${fx.orders.c.token}` }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/orders/:id',
    object: "C's paid order, its token one character off",
    owner: 'C',
    may: NOBODY,
    ref: () => fx.orders.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/orders/${id}?token=${nudged(fx.orders.c.token)}` }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/checkout/sessions/:sessionId',
    object: "C's checkout session (the success page's link)",
    owner: 'C',
    may: EVERYONE,
    ref: () => fx.orders.c.sessionId,
    absent: () => `cs_test_${hex(20)}`,
    build: (id) => ({ url: `/api/checkout/sessions/${id}` }),
    allowed: (res) => expect(res.json()).toMatchObject({ order_id: fx.orders.c.id, status: 'paid' }),
  },
  ...([-1, 1] as const).flatMap((step): Row[] => [
    {
      kind: 'object',
      method: 'GET',
      url: '/api/checkout/sessions/:sessionId',
      object: `the neighbour (${step > 0 ? '+1' : '-1'}) of C's checkout session id`,
      owner: null,
      may: NOBODY,
      ref: () => neighbourId(fx.orders.c.sessionId, step),
      absent: () => `cs_test_${hex(20)}`,
      build: (id) => ({ url: `/api/checkout/sessions/${id}` }),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/pay/:sessionId',
      object: `the neighbour (${step > 0 ? '+1' : '-1'}) of C's payment page`,
      owner: null,
      may: NOBODY,
      ref: () => neighbourId(fx.orders.c.sessionId, step),
      absent: () => `cs_test_${hex(20)}`,
      build: (id) => ({ url: `/pay/${id}` }),
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/pay/:sessionId',
      object: `a payment to the neighbour (${step > 0 ? '+1' : '-1'}) of C's session`,
      owner: null,
      may: NOBODY,
      ref: () => neighbourId(fx.orders.c.sessionId, step),
      absent: () => `cs_test_${hex(20)}`,
      build: (id) => payRequest(id),
      state: () => paymentState(fx.orders.c.id),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/track/:number',
      object: `the tracking number next to C's parcel (n${step > 0 ? '+1' : '-1'})`,
      owner: null,
      may: NOBODY,
      ref: () => trackingNeighbour(fx.tracking, step),
      absent: () => `FM${randomInt(1e11, 1e12)}`,
      build: (n) => ({ url: `/track/${n}` }),
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/pay/connect/:token',
      object: `the neighbour (${step > 0 ? '+1' : '-1'}) of a creator's Stripe Connect onboarding link`,
      owner: null,
      may: NOBODY,
      ref: () => neighbourId(fx.connect.token, step),
      absent: connectToken,
      build: (token) => ({ url: `/pay/connect/${token}` }),
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/pay/connect/:token',
      object: `completing the neighbour (${step > 0 ? '+1' : '-1'}) of a creator's Stripe Connect onboarding`,
      owner: null,
      may: NOBODY,
      ref: () => neighbourId(fx.connect.token, step),
      absent: connectToken,
      build: (token) => connectRequest(token),
      state: connectState,
    },
    {
      kind: 'object',
      method: 'GET',
      url: '/pay/manage/:token',
      object: `the neighbour (${step > 0 ? '+1' : '-1'}) of a subscriber's manage page link`,
      owner: null,
      may: NOBODY,
      ref: () => neighbourId(fx.manage.token, step),
      absent: manageToken,
      build: (token) => ({ url: `/pay/manage/${token}` }),
    },
    {
      kind: 'object',
      method: 'POST',
      url: '/pay/manage/:token',
      object: `cancelling through the neighbour (${step > 0 ? '+1' : '-1'}) of a subscriber's manage page link`,
      owner: null,
      may: NOBODY,
      ref: () => neighbourId(fx.manage.token, step),
      absent: manageToken,
      build: (token) => manageRequest(token, 'cancel'),
      state: manageState,
    },
  ]),
  {
    kind: 'object',
    method: 'GET',
    url: '/pay/:sessionId',
    object: "C's paid payment page",
    owner: 'C',
    may: EVERYONE,
    ref: () => fx.orders.c.sessionId,
    absent: () => `cs_test_${hex(20)}`,
    build: (id) => ({ url: `/pay/${id}` }),
    allowed: (res) => expect(res.body).not.toContain('name="card_number"'),
  },
  {
    // Paying again is allowed to whoever holds the link, and changes nothing: no second charge.
    kind: 'object',
    method: 'POST',
    url: '/pay/:sessionId',
    object: "a second payment of C's paid session",
    owner: 'C',
    may: EVERYONE,
    ref: () => fx.orders.c.sessionId,
    absent: () => `cs_test_${hex(20)}`,
    build: (id) => payRequest(id),
    state: () => paymentState(fx.orders.c.id),
    allowed: async (res) => {
      expect(res.statusCode).toBe(303);
      expect((await orderRow(fx.orders.c.id))?.status).toBe('paid');
      // The two orders' payments (the subscription's checkout, in subscription mode, is not one).
      const completed = t.db.selectFrom('embedded_payment_events').select('id').where('type', '=', 'checkout.session.completed');
      expect(await completed.where(sql<boolean>`payload->'data'->'object'->>'mode' = 'payment'`).execute()).toHaveLength(2);
    },
  },
  {
    // The link is the capability (Stripe's onboarding links are too): whoever holds it sees the page.
    kind: 'object',
    method: 'GET',
    url: '/pay/connect/:token',
    object: "a creator's Stripe Connect onboarding page",
    owner: null,
    may: EVERYONE,
    ref: () => fx.connect.token,
    absent: connectToken,
    build: (token) => ({ url: `/pay/connect/${token}` }),
    allowed: (res) => expect(res.body).toContain(fx.connect.accountId),
  },
  {
    // Completing it is allowed to whoever holds the link; again, it changes nothing and announces nothing more.
    kind: 'object',
    method: 'POST',
    url: '/pay/connect/:token',
    object: "completing a creator's Stripe Connect onboarding",
    owner: null,
    may: EVERYONE,
    ref: () => fx.connect.token,
    absent: connectToken,
    build: (token) => connectRequest(token),
    state: connectState,
    allowed: async (res) => {
      expect(res.statusCode).toBe(303);
      const state = await connectState();
      expect(state.account?.status).toBe('active');
      expect(state.events).toBe(1);
      expect(state.user).toMatchObject({ stripe_connect_account_id: fx.connect.accountId, stripe_connect_status: 'active' });
    },
  },
  {
    // The manage link is the capability (as Stripe's customer portal sessions are): whoever holds
    // it sees the subscriber's page, the plan and the card's last 4 only. Its owner is the
    // subscriber, a throwaway creator of its own (none of the actors), hence owner null here.
    kind: 'object',
    method: 'GET',
    url: '/pay/manage/:token',
    object: "a subscriber's manage page (their embedded subscription)",
    owner: null,
    may: EVERYONE,
    ref: () => fx.manage.token,
    absent: manageToken,
    build: (token) => ({ url: `/pay/manage/${token}` }),
    allowed: (res) => {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('ending in 4242');
      expect(res.body).toContain('name="action" value="cancel"');
      expect(res.body).not.toMatch(/4242[\s-]?4242[\s-]?4242[\s-]?4242/);
    },
  },
  {
    // Its form is allowed to whoever holds the link (from this site's page). Undoing a cancellation
    // that was never asked changes nothing and announces nothing.
    kind: 'object',
    method: 'POST',
    url: '/pay/manage/:token',
    object: "undoing a cancellation on a subscriber's manage page (nothing to undo)",
    owner: null,
    may: EVERYONE,
    ref: () => fx.manage.token,
    absent: manageToken,
    build: (token) => manageRequest(token, 'resume'),
    state: manageState,
    allowed: async (res) => {
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/pay/manage/${fx.manage.token}?done=resume`);
      expect(await manageState()).toEqual(fx.manage.before);
    },
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/track/:number',
    object: "C's parcel (tracking number n)",
    owner: 'C',
    may: EVERYONE,
    ref: () => fx.tracking,
    absent: () => `FM${randomInt(1e11, 1e12)}`,
    build: (n) => ({ url: `/track/${n}` }),
  },

  // The development mailbox: one message through its own link; the outbox for admins.
  {
    kind: 'object',
    method: 'GET',
    url: '/api/dev/mail/:id',
    object: "the message to C, with its own token",
    owner: 'C',
    may: EVERYONE,
    ref: () => fx.mail.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/dev/mail/${id}?token=${fx.mail.c.token}` }),
    allowed: (res) => expect(res.json().message).toMatchObject({ id: fx.mail.c.id, to: fx.people.C.email }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/dev/mail/:id',
    object: "the message to C, with the other message's token (swapped)",
    owner: 'C',
    may: NOBODY,
    ref: () => fx.mail.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/dev/mail/${id}?token=${fx.mail.other.token}` }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/dev/mail/:id',
    object: "the other message, with C's token (swapped)",
    owner: null,
    may: NOBODY,
    ref: () => fx.mail.other.id,
    absent: uuid,
    build: (id) => ({ url: `/api/dev/mail/${id}?token=${fx.mail.c.token}` }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/dev/mail/:id',
    object: 'the message to C, without a token',
    owner: 'C',
    may: NOBODY,
    ref: () => fx.mail.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/dev/mail/${id}` }),
  },
  {
    kind: 'object',
    method: 'GET',
    url: '/api/dev/mail/:id',
    object: 'the message to C, its token one character off',
    owner: 'C',
    may: NOBODY,
    ref: () => fx.mail.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/dev/mail/${id}?token=${nudged(fx.mail.c.token)}` }),
  },
  {
    kind: 'own',
    method: 'GET',
    url: '/api/dev/mail',
    object: 'the outbox (every message, admins only)',
    owner: 'admin',
    may: ['admin'],
    request: () => ({ url: '/api/dev/mail' }),
    secrets: () => [fx.people.C.email, fx.mail.c.token],
    allowed: (res) => expect((res.json().messages as { id: string }[]).map((m) => m.id)).toEqual(expect.arrayContaining([fx.mail.c.id, fx.mail.other.id])),
  },

  // Subscription approval links: the link (address and token) is the capability, good once. Every
  // refusal answers the same 400 as a link that names nothing (deniedStatus). Each row sends from
  // an address of its own, so the refusals it makes stay below the per-address limit.
  {
    kind: 'object',
    method: 'POST',
    url: '/api/subscriptions/approve',
    object: "a subscription approval link (a new one for each caller, each to an address of its own)",
    owner: null,
    may: EVERYONE,
    ref: async () => approvalRef(await approvalLink(`approve-${hex()}@example.com`)),
    absent: () => approvalRef({ email: 'nobody@example.com', token: unknownApprovalToken() }),
    build: (ref) => approvalRequest(ref, '10.9.2.1'),
    allowed: (res) => expect(res.json()).toEqual({ success: true, message: SUBSCRIPTION_MESSAGES.approvedMessage }),
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/subscriptions/approve',
    object: "the approval link sent to C, with another address",
    owner: 'C',
    may: NOBODY,
    ref: () => fx.approval,
    absent: () => approvalRef({ email: fx.people.C.email, token: unknownApprovalToken() }),
    build: (ref) => approvalRequest(ref, '10.9.2.2', 'someone.else@example.com'),
    deniedStatus: 400,
    state: approvalState,
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/subscriptions/approve',
    object: "the approval link sent to C, its token one character off",
    owner: 'C',
    may: NOBODY,
    ref: () => fx.approval,
    absent: () => approvalRef({ email: fx.people.C.email, token: unknownApprovalToken() }),
    build: (ref) => {
      const [email, token] = ref.split(' ') as [string, string];
      return approvalRequest(approvalRef({ email, token: nudged(token) }), '10.9.2.3');
    },
    deniedStatus: 400,
    state: approvalState,
  },

  // The studio and the account: the session decides whose data it is; A's must reach nobody else.
  {
    kind: 'own',
    method: 'GET',
    url: '/api/auth/me',
    object: "the signed-in user (A's for A)",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: '/api/auth/me' }),
    secrets: () => [fx.people.A.id, fx.people.A.email],
    allowed: (res) => expect(res.json().user).toMatchObject({ id: fx.people.A.id, role: 'creator', is_admin: false }),
    denied: (res, as) => expect(res.json().user?.id ?? null).toBe(as === 'anonymous' ? null : who(as).id),
  },
  {
    kind: 'own',
    method: 'GET',
    url: '/api/studio/videos',
    object: "A's videos, hidden ones included",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: '/api/studio/videos' }),
    secrets: () => [...Object.values(fx.videos.A), fx.videos.retired, ...Object.values(fx.videos.A).map((id) => fx.titles[id]!)],
    allowed: (res) => {
      const ids = (res.json().videos as { id: string }[]).map((v) => v.id);
      expect(ids).toEqual(expect.arrayContaining([...Object.values(fx.videos.A), fx.videos.retired]));
      for (const id of Object.values(fx.videos.B)) expect(ids).not.toContain(id);
    },
  },
  {
    kind: 'own',
    method: 'GET',
    url: '/api/studio/profile',
    object: "A's studio profile",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: '/api/studio/profile' }),
    secrets: () => [fx.people.A.id],
    allowed: (res) => expect(res.json().profile.id).toBe(fx.people.A.id),
    denied: (res, as) => expect(res.json().profile.id).toBe(who(as).id),
  },
  {
    kind: 'own',
    method: 'PATCH',
    url: '/api/studio/profile',
    object: "A's profile, aimed at with A's id in the body",
    owner: 'A',
    may: ['A'],
    request: (as) => ({ method: 'PATCH', url: '/api/studio/profile', payload: { bio: `bio by ${as}`, id: fx.people.A.id, user_id: fx.people.A.id } }),
    secrets: () => [fx.people.A.id],
    state: () => userRow(fx.people.A.id),
    allowed: async (res) => {
      expect(res.json().profile.id).toBe(fx.people.A.id);
      expect((await userRow(fx.people.A.id))?.bio).toBe('bio by A');
    },
    denied: async (res, as) => {
      expect(res.json().profile).toMatchObject({ id: who(as).id, bio: `bio by ${as}` });
    },
  },
  {
    kind: 'own',
    method: 'POST',
    url: '/api/studio/profile/:kind',
    object: "A's avatar",
    owner: 'A',
    may: ['A'],
    request: async () => {
      const { payload, headers } = await multipart([{ name: 'image', value: fx.png, filename: 'me.png', type: 'image/png' }]);
      return { method: 'POST', url: '/api/studio/profile/avatar', payload, headers };
    },
    secrets: () => [fx.people.A.id],
    state: () => userRow(fx.people.A.id),
    allowed: async (res) => expect(res.json().profile.profile_image_url).toBe((await userRow(fx.people.A.id))?.profile_image_url),
    denied: async (res, as) => {
      expect(res.json().profile.id).toBe(who(as).id);
      expect(res.json().profile.profile_image_url).toBe((await userRow(who(as).id))?.profile_image_url);
    },
  },
  {
    kind: 'own',
    method: 'POST',
    url: '/api/users/ensure-exists',
    object: "A's account, named by id and email in the body",
    owner: 'A',
    may: ['A'],
    request: () => ({ method: 'POST', url: '/api/users/ensure-exists', payload: { user_id: fx.people.A.id, email: fx.people.A.email, display_name: 'Not A' } }),
    secrets: () => [fx.people.A.id, fx.people.A.email],
    state: () => userRow(fx.people.A.id),
    allowed: (res) => expect(res.json().user).toEqual({ id: fx.people.A.id, email: fx.people.A.email }),
    denied: (res, as) => expect(res.json().user).toEqual({ id: who(as).id, email: who(as).email }),
  },
  {
    kind: 'own',
    method: 'POST',
    url: '/api/users/update-channel',
    object: "A's channel slug, aimed at with A's id in the body",
    owner: 'A',
    may: ['A'],
    request: (as) => ({ method: 'POST', url: '/api/users/update-channel', payload: { user_id: fx.people.A.id, channel_slug: newSlugFor(as) } }),
    secrets: () => [fx.people.A.username],
    state: () => userRow(fx.people.A.id),
    allowed: async (res) => expect((await userRow(fx.people.A.id))?.username).toBe(res.json().channel_slug),
    denied: async (res, as) => expect((await userRow(who(as).id))?.username).toBe(res.json().channel_slug),
    // Every caller's slug goes back, so the slug rows above and below see the fixture's.
    after: async (as) => {
      if (as === 'anonymous') return;
      await t.db.updateTable('users').set({ username: who(as).username }).where('id', '=', who(as).id).execute();
    },
  },
  {
    kind: 'own',
    method: 'GET',
    url: '/api/studio/analytics',
    object: "A's sales and earnings",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: '/api/studio/analytics' }),
    secrets: () => [fx.titles[fx.videos.A.public]!, fx.videos.A.public],
    allowed: async (res) => {
      const earned = await t.db.selectFrom('earnings').select('creator_share_cents').where('user_id', '=', fx.people.A.id).execute();
      expect(earned.length).toBeGreaterThan(0);
      // C's order, and the 2024 sale behind A's failed payout.
      expect(res.json().analytics).toMatchObject({ total_sales: 2, earnings_cents: earned.reduce((s, e) => s + e.creator_share_cents, 0) });
    },
    denied: async (res, as) => {
      const earned = await t.db.selectFrom('earnings').select('creator_share_cents').where('user_id', '=', who(as).id).execute();
      expect(res.json().analytics.earnings_cents).toBe(earned.reduce((s, e) => s + e.creator_share_cents, 0));
    },
  },

  // Payment setup: the session decides whose it is; A's (emails, holder name, bank digits) reaches nobody else.
  {
    kind: 'own',
    method: 'GET',
    url: '/api/payouts/setup',
    object: "A's payment setup",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: '/api/payouts/setup' }),
    secrets: () => [fx.payouts.paypal, fx.payouts.holder, fx.payouts.tax],
    allowed: (res) =>
      expect(res.json().setup).toMatchObject({ preferred_payment_method: 'paypal', paypal_email: fx.payouts.paypal, tax_email: fx.payouts.tax, ach: { holder_name: fx.payouts.holder } }),
    denied: async (res, as) => expect(res.json().setup).toEqual(await payoutSetupOf(t.db, who(as).id)),
  },
  {
    kind: 'own',
    method: 'PUT',
    url: '/api/payouts/method',
    object: "A's payout method, aimed at with A's id in the body",
    owner: 'A',
    may: ['A'],
    request: (as) => ({ method: 'PUT', url: '/api/payouts/method', payload: { method: 'paypal', paypal_email: `set-by-${as.toLowerCase()}@example.com`, user_id: fx.people.A.id, id: fx.people.A.id } }),
    secrets: () => [fx.payouts.paypal, fx.payouts.holder, fx.payouts.tax],
    state: () => userRow(fx.people.A.id),
    allowed: async (res) => {
      expect(res.json().setup).toMatchObject({ paypal_email: 'set-by-a@example.com', tax_email: fx.payouts.tax });
      expect((await userRow(fx.people.A.id))?.paypal_email).toBe('set-by-a@example.com');
    },
    denied: async (res, as) => {
      expect(res.json().setup.paypal_email).toBe(`set-by-${as.toLowerCase()}@example.com`);
      expect((await userRow(who(as).id))?.paypal_email).toBe(`set-by-${as.toLowerCase()}@example.com`);
    },
    // A's address goes back, so the rows after this one see the fixture's.
    after: async (as) => {
      if (as === 'A') await t.db.updateTable('users').set({ paypal_email: fx.payouts.paypal }).where('id', '=', fx.people.A.id).execute();
    },
  },
  {
    kind: 'own',
    method: 'PUT',
    url: '/api/payouts/tax-info',
    object: "A's payment email, aimed at with A's id in the body",
    owner: 'A',
    may: ['A'],
    request: (as) => ({ method: 'PUT', url: '/api/payouts/tax-info', payload: { email: `tax-by-${as.toLowerCase()}@example.com`, user_id: fx.people.A.id, id: fx.people.A.id } }),
    secrets: () => [fx.payouts.paypal, fx.payouts.holder, fx.payouts.tax],
    state: () => userRow(fx.people.A.id),
    allowed: async (res) => {
      expect(res.json().setup).toMatchObject({ tax_email: 'tax-by-a@example.com', paypal_email: fx.payouts.paypal });
      expect((await userRow(fx.people.A.id))?.tax_id).toBe('tax-by-a@example.com');
    },
    denied: async (res, as) => expect((await userRow(who(as).id))?.tax_id).toBe(res.json().setup.tax_email),
    after: async (as) => {
      if (as === 'A') await t.db.updateTable('users').set({ tax_id: fx.payouts.tax }).where('id', '=', fx.people.A.id).execute();
    },
  },

  // The payment portal and the month's statement: the session decides whose; A's payout, earnings and setup reach nobody else.
  {
    kind: 'own',
    method: 'GET',
    url: '/api/payouts/portal',
    object: "A's payment portal",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: '/api/payouts/portal' }),
    secrets: () => [fx.payouts.paypal, fx.payouts.holder, fx.titles[fx.videos.A.public]!, String(fx.payout.amount)],
    allowed: async (res) => {
      const body = res.json();
      const earned = await t.db.selectFrom('earnings').select('creator_share_cents').where('user_id', '=', fx.people.A.id).execute();
      expect(body).toMatchObject({ setup: { paypal_email: fx.payouts.paypal }, total_earnings_cents: earned.reduce((s, e) => s + e.creator_share_cents, 0) });
      expect(body.recent_payouts[0]).toMatchObject({ amount_cents: fx.payout.amount, status: 'paid', method: 'paypal' });
      expect(body.recent_earnings[0]).toMatchObject({ kind: 'sale', video_title: fx.titles[fx.videos.A.public] });
    },
    denied: async (res, as) => {
      const body = res.json();
      expect(body.setup).toEqual(await payoutSetupOf(t.db, who(as).id));
      const earned = await t.db.selectFrom('earnings').select('creator_share_cents').where('user_id', '=', who(as).id).execute();
      expect(body.total_earnings_cents).toBe(earned.reduce((s, e) => s + e.creator_share_cents, 0));
      expect(body.recent_payouts).toEqual([]);
    },
  },
  {
    kind: 'own',
    method: 'GET',
    url: '/api/payouts/statement',
    object: "A's statement for this month",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: `/api/payouts/statement?month=${fx.payout.month}` }),
    secrets: () => [fx.titles[fx.videos.A.public]!, `${Math.floor(fx.payout.amount / 100)}.${String(fx.payout.amount % 100).padStart(2, '0')}`],
    allowed: (res) => {
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body).toContain(fx.titles[fx.videos.A.public]);
      expect(res.body).toMatch(/\r\n[0-9-]+,payout,Earnings up to [0-9-]+,PayPal,paid,/);
    },
    denied: (res) => {
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body).not.toContain(',payout,');
    },
  },

  // Subscriptions: a checkout session is its own user's; anyone else presenting its id is answered
  // as for a session the provider does not know (404). A's tier is public on A's profile only.
  {
    kind: 'object',
    method: 'GET',
    url: '/api/subscriptions/verify/:sessionId',
    object: "A's processed subscription checkout",
    owner: 'A',
    may: ['A'],
    ref: () => fx.subscription.sessionId,
    absent: subscriptionSessionId,
    build: (id) => ({ url: `/api/subscriptions/verify/${id}` }),
    allowed: (res) => expect(res.json()).toMatchObject({ success: true, subscription_id: fx.subscription.subscriptionId, customer_id: fx.subscription.customerId }),
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/subscriptions/activate',
    object: "activating A's subscription checkout (with A's id and a tier in the body)",
    owner: 'A',
    may: ['A'],
    ref: () => fx.subscription.sessionId,
    absent: subscriptionSessionId,
    build: (id) => ({ method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: id, user_id: fx.people.A.id, tier: 'pro', status: 'active' } }),
    state: subscriptionState,
    allowed: (res) => expect(res.json().subscription).toMatchObject({ tier: 'pro', stripe_subscription_id: fx.subscription.subscriptionId }),
  },
  {
    kind: 'own',
    method: 'GET',
    url: '/api/subscriptions/me',
    object: "A's subscription",
    owner: 'A',
    may: ['A'],
    request: () => ({ url: '/api/subscriptions/me' }),
    secrets: () => [fx.subscription.subscriptionId, fx.subscription.customerId],
    allowed: (res) => expect(res.json().subscription).toMatchObject({ tier: 'pro', stripe_customer_id: fx.subscription.customerId }),
    denied: (res) => expect(res.json().subscription).toMatchObject({ tier: 'free', stripe_customer_id: null }),
  },
  ...(
    [
      ["A's tier (a creator's profile)", 'A', EVERYONE],
      ["suspended S's tier", null, NOBODY],
      ["customer C's tier: customers have no profile", 'C', NOBODY],
    ] as const
  ).map(
    ([object, owner, may]): Row => ({
      kind: 'object',
      method: 'GET',
      url: '/api/users/:username/subscription',
      object,
      owner,
      may,
      ref: () => fx.people[owner ?? 'S'].username,
      absent: () => `nochannel${hex(3)}`,
      build: (username) => ({ url: `/api/users/${username}/subscription` }),
      ...(owner === 'A' ? { allowed: (res: LightMyRequestResponse) => expect(res.json()).toEqual({ success: true, tier: 'pro', status: 'trialing', isThirdTier: false }) } : {}),
    }),
  ),

  // ACH payouts by NACHA file, admins only. A period's payouts belong to the creators paid in it,
  // but its file holds the full bank numbers of every one of them: not even a payee may download it
  // (A, the owner here, gets the role check's 403 like everyone but the admin), nor confirm it.
  {
    kind: 'object',
    method: 'GET',
    url: '/api/admin/payouts/ach/:period',
    object: "last month's NACHA file (A's ACH payout)",
    owner: 'A',
    may: ['admin'],
    ref: () => fx.ach.month,
    absent: noAchMonth,
    build: (month) => ({ url: `/api/admin/payouts/ach/${month}` }),
    allowed: async (res) => {
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="framemerch-ach-${fx.ach.month}.txt"`);
      // A NACHA file: 94-character records from the file header (1) to the file control and its nines (9), in blocks of 10.
      const records = res.body.split('\n');
      expect(records.pop()).toBe('');
      expect(records.length % 10).toBe(0);
      for (const r of records) expect(r).toHaveLength(94);
      expect(records[0]![0]).toBe('1');
      expect(records.at(-1)![0]).toBe('9');
      // Its one entry is A's payout: A's full numbers (for the bank), under the payout's trace number.
      const entries = records.filter((r) => r.startsWith('6'));
      expect(entries).toHaveLength(1);
      expect(entries[0]!.slice(3, 12)).toBe(A_BANK.routing);
      expect(entries[0]!.slice(12, 29).trim()).toBe(A_BANK.account);
      expect(entries[0]!.slice(79)).toBe(fx.ach.trace);
      // `absent` names nothing: a month without ACH payouts has no file (404, as the table expects for a missing object).
      const none = await send('admin', { url: `/api/admin/payouts/ach/${noAchMonth()}` });
      expect(none.statusCode, none.body).toBe(404);
      expect(none.json().code).toBe('NOT_FOUND');
    },
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/admin/payouts/ach/:period/confirm',
    object: "confirming the upload of last month's NACHA file (A's ACH payout)",
    owner: 'A',
    may: ['admin'],
    // The admin confirms a throwaway month's file (another creator's payout): A's stays processing, its file as it was.
    ref: (_as, allowed) => (allowed ? throwawayAchMonth() : fx.ach.month),
    absent: noAchMonth,
    build: (month) => ({ method: 'POST', url: `/api/admin/payouts/ach/${month}/confirm` }),
    // Confirming a month without ACH payouts is not a 404: the route answers 200 { success: true,
    // confirmed: 0 } (it confirms what is there: nothing), so that is what a refusal would have to
    // look like. No actor here reaches that comparison: the role check admits the admin alone, who
    // may; everyone else gets 401/403 from it, and `state` shows their confirmation changed nothing.
    deniedStatus: 200,
    state: () => achState(fx.ach.period),
    allowed: async (res) => {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ success: true, confirmed: 1 });
      const paid = await achState(fx.achThrowaway.period);
      expect(paid.payouts.map((p) => [p.id, p.status])).toEqual([[fx.achThrowaway.payoutId, 'paid']]);
      expect(paid.entries.map((e) => e.status)).toEqual(['paid']);
      const kept = await achState(fx.ach.period);
      expect(kept.payouts.map((p) => [p.id, p.status])).toEqual([[fx.ach.payoutId, 'processing']]);
      expect(kept.entries.map((e) => [e.trace_number, e.status])).toEqual([[fx.ach.trace, 'processing']]);
      // `absent` names nothing: a month without ACH payouts confirms none.
      const none = await send('admin', { method: 'POST', url: `/api/admin/payouts/ach/${noAchMonth()}/confirm` });
      expect(none.statusCode, none.body).toBe(200);
      expect(none.json()).toEqual({ success: true, confirmed: 0 });
    },
  },

  // The admin portal's orders and payouts, admins only (anyone else gets the role check's 401/403).
  // The admin refunds, or retries the fulfilment of, a throwaway paid order (C's stays paid, its
  // fulfil job queued, for the rows that read it), and retries a throwaway creator's failed payout;
  // a refused request leaves C's order, or A's failed payout, as it was. `absent` (no such order
  // or payout) answers 404.
  {
    kind: 'object',
    method: 'GET',
    url: '/api/admin/orders/:id',
    object: "C's paid order",
    owner: 'C',
    may: ['admin'],
    ref: () => fx.orders.c.id,
    absent: uuid,
    build: (id) => ({ url: `/api/admin/orders/${id}` }),
    allowed: async (res) => {
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.json().order).toMatchObject({ id: fx.orders.c.id, status: 'paid', customer_email: fx.people.C.email, fulfilment: 'queued', can_refund: true });
      await expectNoSuchOrder({ url: `/api/admin/orders/${uuid()}` });
    },
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/admin/orders/:id/refund',
    object: "refunding C's paid order (a throwaway paid order when the admin may)",
    owner: 'C',
    may: ['admin'],
    ref: (_as, allowed) => (allowed ? throwawayPaidOrder() : fx.orders.c.id),
    absent: uuid,
    build: (id) => ({ method: 'POST', url: `/api/admin/orders/${id}/refund`, payload: { confirm: true } }),
    state: () => adminOrderState(fx.orders.c.id),
    allowed: async (res) => {
      // The embedded provider delivers its charge.refunded event before the refund call returns.
      const { order } = res.json();
      expect(res.json()).toMatchObject({ success: true, message: ADMIN_ORDER_MESSAGES.refunded, order: { status: 'refunded', can_refund: false, refund_requested_at: null } });
      const after = await adminOrderState(order.id);
      expect(after.order).toMatchObject({ status: 'refunded' });
      expect(after.order?.refunded_at).not.toBeNull();
      expect(after.earnings.map((e) => e.kind).sort()).toEqual(['reversal', 'sale']);
      expect(after.logs).toBe(1);
      await expectNoSuchOrder({ method: 'POST', url: `/api/admin/orders/${uuid()}/refund`, payload: { confirm: true } });
    },
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/admin/orders/:id/retry-fulfilment',
    object: "retrying the fulfilment of C's paid order (a throwaway order's failed one when the admin may)",
    owner: 'C',
    may: ['admin'],
    ref: (_as, allowed) => (allowed ? throwawayFailedFulfilment() : fx.orders.c.id),
    absent: uuid,
    build: (id) => ({ method: 'POST', url: `/api/admin/orders/${id}/retry-fulfilment` }),
    state: () => adminOrderState(fx.orders.c.id),
    allowed: async (res) => {
      const { order } = res.json();
      expect(res.json()).toMatchObject({ success: true, message: ADMIN_ORDER_MESSAGES.retryQueued, order: { status: 'paid', fulfilment: 'queued', can_retry_fulfilment: false } });
      const after = await adminOrderState(order.id);
      expect(after.jobs.map((j) => [j.dedupe_key, j.status, j.attempts])).toEqual([[fulfilOrderKey(order.id), 'queued', 0]]);
      expect(after.logs).toBe(1);
      await expectNoSuchOrder({ method: 'POST', url: `/api/admin/orders/${uuid()}/retry-fulfilment` });
    },
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/admin/payouts/:id/retry',
    object: "retrying A's failed payout (a throwaway creator's failed payout when the admin may)",
    owner: 'A',
    may: ['admin'],
    ref: (_as, allowed) => (allowed ? throwawayFailedPayout() : fx.failedPayout),
    absent: uuid,
    build: (id) => ({ method: 'POST', url: `/api/admin/payouts/${id}/retry` }),
    state: () => adminPayoutState(fx.failedPayout),
    allowed: async (res) => {
      expect(res.headers['cache-control']).toBe('private, no-store');
      const { payout } = res.json();
      expect(res.json()).toMatchObject({ success: true, payout: { status: 'processing', method: 'paypal', can_retry: false } });
      const after = await adminPayoutState(payout.id);
      expect(after).toMatchObject({ payout: { status: 'processing' }, held: 1, logs: 1 });
      const none = await send('admin', { method: 'POST', url: `/api/admin/payouts/${uuid()}/retry` });
      expect(none.statusCode, none.body).toBe(404);
      expect(none.json()).toEqual({ success: false, error: ADMIN_PAYOUT_MESSAGES.payoutNotFound, code: 'NOT_FOUND' });
    },
  },

  // The admin portal's user actions, admins only. An allowed admin acts on a throwaway account
  // (a suspended one for activate), so A and S stay as the other rows need them; `absent` (no such
  // user) answers 404 'User not found'.
  {
    kind: 'object',
    method: 'POST',
    url: '/api/admin/users/:id/suspend',
    object: "A's account",
    owner: 'A',
    may: ['admin'],
    ref: async (_as, allowed) => (allowed ? (await throwawayCreator()).id : fx.people.A.id),
    absent: uuid,
    build: (id) => ({ method: 'POST', url: `/api/admin/users/${id}/suspend` }),
    state: () => adminUserState(fx.people.A.id),
    allowed: (res) => expect(res.json()).toMatchObject({ success: true, user: { status: 'suspended' } }),
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/admin/users/:id/activate',
    object: "suspended S's account",
    owner: null,
    may: ['admin'],
    ref: async (_as, allowed) => {
      if (!allowed) return fx.people.S.id;
      const stand = await throwawayCreator();
      await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', stand.id).execute();
      return stand.id;
    },
    absent: uuid,
    build: (id) => ({ method: 'POST', url: `/api/admin/users/${id}/activate` }),
    state: () => adminUserState(fx.people.S.id),
    allowed: (res) => expect(res.json()).toMatchObject({ success: true, user: { status: 'active' } }),
  },
  {
    kind: 'object',
    method: 'DELETE',
    url: '/api/admin/users/:id',
    object: "A's account",
    owner: 'A',
    may: ['admin'],
    ref: async (_as, allowed) => (allowed ? (await throwawayCreator()).id : fx.people.A.id),
    absent: uuid,
    build: (id) => ({ method: 'DELETE', url: `/api/admin/users/${id}`, payload: { confirm: true } }),
    state: () => adminUserState(fx.people.A.id),
    allowed: (res) => expect(res.json()).toMatchObject({ success: true }),
  },

  // Resumable uploads (tus) are their creator's alone: anyone else's request, the admin's too,
  // answers as one for an upload that does not exist (404), and changes nothing.
  {
    kind: 'object',
    method: 'HEAD',
    url: '/api/uploads/:id',
    object: "A's resumable upload, partly sent",
    owner: 'A',
    may: ['A'],
    ref: () => fx.uploads.partial,
    absent: uploadId,
    build: (id) => ({ method: 'HEAD', url: `/api/uploads/${id}`, headers: TUS }),
    state: () => uploadState(fx.uploads.partial),
    allowed: (res) => expect(res.headers).toMatchObject({ 'upload-offset': String(MP4_HEAD.length), 'upload-length': '1000000' }),
  },
  {
    kind: 'object',
    method: 'PATCH',
    url: '/api/uploads/:id',
    object: "A's resumable upload, partly sent",
    owner: 'A',
    may: ['A'],
    // A appends to a throwaway upload of its own; the refused aim at the fixture.
    ref: (_as, allowed) => (allowed ? uploadOfA(1_000_000, null) : fx.uploads.partial),
    absent: uploadId,
    build: (id) => appendRequest(id, 0, MP4_HEAD),
    state: () => uploadState(fx.uploads.partial),
    allowed: (res) => expect(res.headers['upload-offset']).toBe(String(MP4_HEAD.length)),
  },
  {
    kind: 'object',
    method: 'DELETE',
    url: '/api/uploads/:id',
    object: "A's resumable upload, partly sent",
    owner: 'A',
    may: ['A'],
    ref: (_as, allowed) => (allowed ? uploadOfA(1_000_000, MP4_HEAD) : fx.uploads.partial),
    absent: uploadId,
    build: (id) => ({ method: 'DELETE', url: `/api/uploads/${id}`, headers: TUS }),
    state: () => uploadState(fx.uploads.partial),
  },
  {
    kind: 'object',
    method: 'POST',
    url: '/api/videos/resumable',
    object: "A's complete resumable upload, finished into a video",
    owner: 'A',
    may: ['A'],
    // A finishes a throwaway upload of its own (a real clip); the refused aim at the fixture.
    ref: (_as, allowed) => (allowed ? uploadOfA(fx.uploads.clip.length, fx.uploads.clip) : fx.uploads.complete),
    absent: uploadId,
    build: finishRequest,
    state: async () => ({
      upload: await uploadState(fx.uploads.complete),
      videos: (await t.db.selectFrom('videos').select('id').where('title', '=', 'Finished upload').execute()).length,
    }),
    allowed: (res) => expect(res.json().video).toMatchObject({ title: 'Finished upload', channel_slug: fx.people.A.username }),
  },
];

function routeOf(row: Pick<Row, 'method' | 'url'>) {
  const route = API_ROUTES.find((r) => r.method === row.method && r.url === row.url);
  if (!route) throw new Error(`${row.method} ${row.url} is not in API_ROUTES`);
  return route;
}

/** The role answer the route's declared access gives this actor, or null when it admits them. */
function roleRefusal(access: Access, as: Actor): { status: number; code: string } | null {
  const who = ROLE[as];
  if (access === 'public') return null;
  if (!who) return { status: 401, code: 'UNAUTHENTICATED' };
  if (access === 'admin' && !who.admin) return { status: 403, code: 'FORBIDDEN' };
  if (access === 'creator' && who.role !== 'creator' && !who.admin) return { status: 403, code: 'FORBIDDEN' };
  return null;
}

/** What makes two answers the same to a caller: status, content type and body. */
const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, type: res.headers['content-type'], body: res.body });

/** The embedded Stripe Connect onboarding page's form, completing it. */
function connectRequest(token: string): Req {
  return { method: 'POST', url: `/pay/connect/${token}`, payload: 'decision=complete', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}

function payRequest(sessionId: string): Req {
  return {
    method: 'POST',
    url: `/pay/${sessionId}`,
    payload: new URLSearchParams(testCard('4242424242424242', { email: 'intruder@example.com', name: 'Someone Else' })).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

async function runRow(row: Row, as: Actor): Promise<void> {
  const refusal = roleRefusal(routeOf(row).access, as);
  const allowed = !refusal && row.may.includes(as);
  try {
    const before = row.state ? await row.state() : undefined;
    let res: LightMyRequestResponse;
    if (row.kind === 'object') {
      const given = await row.ref(as, allowed);
      const { ref, cookies } = typeof given === 'string' ? { ref: given, cookies: undefined } : given;
      res = await send(as, { ...row.build(ref), ...(cookies ? { cookies } : {}) });
      if (!refusal && !allowed) {
        // A refusal is indistinguishable from asking for something that does not exist.
        const missing = await send(as, row.build(row.absent()));
        expect(res.statusCode, `${res.statusCode} ${res.body.slice(0, 200)}`).toBe(row.deniedStatus ?? 404);
        expect(answer(res)).toEqual(answer(missing));
      }
    } else {
      res = await send(as, await row.request(as));
      if (!refusal && !allowed) {
        expect(res.statusCode, res.body.slice(0, 200)).toBeLessThan(300);
        for (const secret of row.secrets()) expect(res.body, `${LABEL[as]} was answered the owner's ${secret}`).not.toContain(secret);
        await row.denied?.(res, as);
      }
    }
    if (refusal) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(refusal.status);
      // A HEAD answer has no body to read the code from.
      if (row.method !== 'HEAD') expect(res.json().code).toBe(refusal.code);
    }
    if (allowed) {
      expect(res.statusCode, res.body.slice(0, 300)).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(400);
      await row.allowed?.(res, as);
    }
    // A refused write left the object as it was.
    if (!allowed && row.state) expect(await row.state()).toEqual(before);
  } finally {
    await row.after?.(as);
  }
}

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN, ...NACHA }) });

  // People. The same local part gives sequential slugs: maker, maker2, maker3, maker4.
  fx.people.A = await person('maker@a.example', 'Maker A', 'creator');
  fx.people.B = await person('maker@b.example', 'Maker B', 'creator');
  fx.people.S = await person('maker@s.example', 'Maker S', 'creator');
  fx.people.C = await person('maker@c.example', 'Customer C', 'customer');
  fx.people.admin = await person('admin@example.com', 'Admin', 'customer');
  await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', fx.people.admin.id).execute();
  expect([fx.people.A, fx.people.B, fx.people.S, fx.people.C].map((p) => p.username)).toEqual(['maker', 'maker2', 'maker3', 'maker4']);

  // Videos: public, pending (unlisted while awaiting review) and rejected (unlisted) for each creator.
  for (const c of ['A', 'B'] as const) {
    const id = fx.people[c].id;
    fx.videos[c] = { public: await video(id, 'approved', `${c} public`), pending: await video(id, 'pending', `${c} pending`), rejected: await video(id, 'rejected', `${c} rejected`) };
  }
  fx.videos.S = await video(fx.people.S.id, 'approved', 'S public');
  await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', fx.people.S.id).execute();
  fx.videos.retired = await video(fx.people.A.id, 'approved', 'A retired');

  fx.png = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#3366cc' } }).png().toBuffer();
  fx.pngDataUrl = `data:image/png;base64,${fx.png.toString('base64')}`;

  // Merch made by C through the route, from A's and B's public videos and from the video rejected later.
  const makeProduct = async (videoId: string) => {
    const res = await send('C', { method: 'POST', url: '/api/create-product', payload: { videoUrl: mediaPath(videoId), screenshots: [fx.pngDataUrl] } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().product_id as string;
  };
  fx.products = { a: await makeProduct(fx.videos.A.public), b: await makeProduct(fx.videos.B.public), retired: await makeProduct(fx.videos.retired) };
  await t.db.updateTable('videos').set({ verification_status: 'rejected' }).where('id', '=', fx.videos.retired).execute();

  // Orders, paid through the embedded payment page; its events go straight to the webhook.
  t.app.embeddedPayments.setDelivery(async (body, signature) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
    return { statusCode: res.statusCode, body: res.body };
  });
  fx.orders.c = await paidOrder('C', fx.products.a, fx.people.C.email);
  fx.orders.other = await paidOrder('anonymous', fx.products.b, 'other.buyer@example.com');
  expect((await orderRow(fx.orders.c.id))?.status).toBe('paid');

  // C's parcel at the embedded print shop, with a tracking number whose neighbours are well-formed.
  fx.tracking = `FM${randomInt(2e11, 9e11)}`;
  await t.db
    .insertInto('embedded_pod_orders')
    .values({ id: `pod_${hex(8)}`, external_id: fx.orders.c.id, status: 'fulfilled', recipient: '{}', items: '[]', tracking_number: fx.tracking, tracking_url: `${ORIGIN}/track/${fx.tracking}`, next_step_at: new Date(Date.now() + 3600_000) })
    .execute();

  // A's payment setup, saved through the routes: a bank account, then PayPal chosen, and a payment email.
  fx.payouts = { paypal: `payee-a-${hex()}@example.com`, holder: `Holder A ${hex()}`, tax: `tax-a-${hex()}@example.com` };
  for (const [url, payload] of [
    ['/api/payouts/method', { method: 'ach', routing_number: A_BANK.routing, account_number: A_BANK.account, holder_name: fx.payouts.holder, account_type: 'checking' }],
    ['/api/payouts/method', { method: 'paypal', paypal_email: fx.payouts.paypal }],
    ['/api/payouts/tax-info', { email: fx.payouts.tax }],
  ] as const) {
    const res = await send('A', { method: 'PUT', url, payload });
    expect(res.statusCode, res.body).toBe(200);
  }

  // A creator of their own (not A or B, whose rows other tests read) who chose Stripe Connect: the onboarding link.
  const connecting = await throwawayCreator();
  const connectSaved = await send('A', { method: 'PUT', url: '/api/payouts/method', payload: { method: 'stripe_connect', email: `connect-${hex()}@example.com` }, cookies: connecting.cookies });
  expect(connectSaved.statusCode, connectSaved.body).toBe(200);
  fx.connect = { token: new URL(connectSaved.json().onboarding_url as string).pathname.split('/').pop()!, accountId: '', userId: connecting.id };
  fx.connect.accountId = (await userRow(connecting.id))!.stripe_connect_account_id!;

  // A paid payout for A this month, with an amount no one else's figures hold.
  const today = new Date().toISOString().slice(0, 10);
  fx.payout = { amount: 765_400 + randomInt(10, 99), month: today.slice(0, 7) };
  await t.db
    .insertInto('payouts')
    .values({ user_id: fx.people.A.id, amount_cents: fx.payout.amount, fee_cents: 30, method: 'paypal', period: `${fx.payout.month}-01`, payout_date: today, status: 'paid' })
    .execute();

  // An ACH payout for A last month (a due period), to the bank account A saved, still processing:
  // the entry of that period's NACHA file. Dated last month, it stays out of this month's statement
  // and after this month's payout in the portal.
  const thisPeriod = periodAt(new Date());
  const last = new Date(Date.parse(`${thisPeriod}T00:00:00Z`));
  last.setUTCMonth(last.getUTCMonth() - 1);
  const lastPeriod = last.toISOString().slice(0, 10);
  const achMade = await achPayout(fx.people.A.id, lastPeriod, 43_200 + randomInt(10, 99));
  fx.ach = { period: lastPeriod, month: lastPeriod.slice(0, 7), payoutId: achMade.id, trace: achMade.trace };

  // A failed PayPal payout of A's for an old period, with an earning of A's from before that
  // period's cut-off that no payout holds: the admin could send it again (can_retry), so a refused
  // retry is refused for who asks, not for the payout. Dated 2024, it stays behind this month's
  // payout and earnings in the portal, and out of this month's statement.
  await earn(t.db, fx.people.A.id, 10_000, new Date('2024-05-20T00:00:00Z'));
  const failedPayout = await t.db
    .insertInto('payouts')
    .values({ user_id: fx.people.A.id, amount_cents: 5_600 + randomInt(10, 99), method: 'paypal', period: '2024-06-01', payout_date: '2024-06-01', status: 'failed' })
    .returning('id')
    .executeTakeFirstOrThrow();
  fx.failedPayout = failedPayout.id;
  const failedListed = await send('admin', { url: '/api/admin/payouts?period=2024-06&status=failed&limit=100' });
  expect(failedListed.statusCode, failedListed.body).toBe(200);
  expect(failedListed.json().payouts).toEqual([expect.objectContaining({ id: fx.failedPayout, creator: expect.objectContaining({ id: fx.people.A.id }), can_retry: true })]);

  // A's Pro trial, as its checkout's events leave it: the row, and the session processed.
  fx.subscription = { sessionId: subscriptionSessionId(), subscriptionId: `sub_test_${hex(8)}`, customerId: `cus_test_${hex(8)}` };
  const trialStart = new Date(Date.now() - 86_400_000);
  const trialEnd = new Date(trialStart.getTime() + 7 * 86_400_000);
  await t.db
    .insertInto('user_subscriptions')
    .values({
      user_id: fx.people.A.id, tier: 'pro', status: 'trialing', stripe_status: 'trialing', trial_end: trialEnd, current_period_start: trialStart, current_period_end: trialEnd,
      stripe_subscription_id: fx.subscription.subscriptionId, stripe_customer_id: fx.subscription.customerId,
      event_order: `0:${String(Math.floor(trialStart.getTime() / 1000)).padStart(12, '0')}:2:${String(Math.floor(trialStart.getTime() / 1000)).padStart(12, '0')}:0:0:evt_fixture`,
      subscription_created_at: trialStart,
    })
    .execute();
  await t.db
    .insertInto('subscription_checkout_sessions')
    .values({ session_id: fx.subscription.sessionId, user_id: fx.people.A.id, stripe_subscription_id: fx.subscription.subscriptionId, stripe_customer_id: fx.subscription.customerId })
    .execute();

  // A throwaway creator's Pro trial at the embedded provider, through the routes: the checkout,
  // paid on its page, its events delivered; then the manage link POST /api/subscriptions/manage gives.
  const subscriber = await throwawayCreator();
  const subCheckout = await send('A', { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' }, cookies: subscriber.cookies });
  expect(subCheckout.statusCode, subCheckout.body).toBe(200);
  const subPage = new URL(subCheckout.json().url as string).pathname;
  const subPaid = await send('anonymous', {
    method: 'POST',
    url: subPage,
    payload: new URLSearchParams(testCard('4242424242424242', { email: subscriber.email })).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(subPaid.statusCode, subPaid.body).toBe(303);
  await t.app.embeddedPayments.deliverDue();
  const subRow = await t.db.selectFrom('user_subscriptions').selectAll().where('user_id', '=', subscriber.id).executeTakeFirstOrThrow();
  expect(subRow).toMatchObject({ tier: 'pro', status: 'trialing', cancel_at_period_end: false });
  const manageLink = await send('A', { method: 'POST', url: '/api/subscriptions/manage', cookies: subscriber.cookies });
  expect(manageLink.statusCode, manageLink.body).toBe(200);
  const managePath = new URL(manageLink.json().url as string).pathname;
  expect(managePath).toMatch(/^\/pay\/manage\/[A-Za-z0-9_-]{20,}$/);
  fx.manage = { token: managePath.split('/').pop()!, subscriptionId: subRow.stripe_subscription_id!, customerId: subRow.stripe_customer_id!, before: undefined };
  fx.manage.before = await manageState();
  expect(fx.manage.before).toMatchObject({ subscription: { cancel_at_period_end: false, status: 'trialing' }, customer: { card_last4: '4242' } });

  // Two messages in the development mailbox, each with its own link.
  const mail = async (as: 'C' | 'anonymous', email: string, ip: string) => {
    const res = await send(as, { method: 'POST', url: '/api/send-welcome-email', payload: { email }, remoteAddress: ip });
    expect(res.statusCode, res.body).toBe(202);
    const link = new URL(res.json().mail_link as string, ORIGIN);
    return { id: link.searchParams.get('message')!, token: link.searchParams.get('token')! };
  };
  fx.mail.c = await mail('C', fx.people.C.email, '10.9.0.1');
  fx.mail.other = await mail('anonymous', 'someone.else@example.com', '10.9.0.2');
  fx.approval = approvalRef(await approvalLink(fx.people.C.email));
  // A's resumable uploads: one with its first bytes sent, one complete (a real clip), neither finished.
  fx.uploads.clip = await testMedia('h264-small.mp4');
  fx.uploads.partial = await uploadOfA(1_000_000, MP4_HEAD);
  fx.uploads.complete = await uploadOfA(fx.uploads.clip.length, fx.uploads.clip);
}, 60_000);
afterAll(async () => t?.close());

describe('the object table', () => {
  it('names only routes of API_ROUTES, and has a row for every route that names an object', () => {
    for (const row of TABLE) routeOf(row);
    const covered = new Set(TABLE.map((r) => `${r.method} ${r.url}`));
    const needed = API_ROUTES.filter((r) => /[:*]/.test(r.url) || OBJECT_ROUTES.has(`${r.method} ${r.url}`)).map((r) => `${r.method} ${r.url}`);
    expect(needed.filter((r) => !covered.has(r))).toEqual([]);
    for (const key of OBJECT_ROUTES) expect(API_ROUTES.some((r) => `${r.method} ${r.url}` === key), key).toBe(true);
  });

  describe.each(TABLE.map((row) => [`${row.method} ${row.url} · ${row.object}`, row] as const))('%s', (_name, row) => {
    const cases = ACTORS.map((as) => [`${LABEL[as]}${row.owner === as ? ' (owner)' : ''}`, as] as const);
    if (row.todo) {
      it.todo(`refused to everyone: ${row.todo}`);
      return;
    }
    it.each(cases)('as %s', async (_label, as) => runRow(row, as));
  });
});

/** Fields no create or update body may set: each would be an escalation or a price the client chose. */
function EXTRA(): Record<string, unknown> {
  return {
    role: 'creator',
    is_admin: true,
    status: 'paid',
    user_id: fx.people.B.id,
    creator_id: fx.people.B.id,
    creator_share: 100,
    price: 0.01,
    price_cents: 1,
    total_cents: 1,
    unit_price: 0.01,
  };
}

/** A user's payout details, as a forged body would set them: no route but the payment setup may, and it only as it decides. */
function PAYOUT_EXTRA(): Record<string, unknown> {
  return {
    payout_enabled: true,
    paypal_email: 'forged@example.com',
    preferred_payment_method: 'paypal',
    tax_id: 'forged-tax@example.com',
    tax_info_verified: true,
    bank_account_verified: true,
    ach_routing_number: '021000021',
    ach_routing_number_encrypted: 'v1.forged.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
    ach_routing_last4: '9999',
    ach_account_number_encrypted: 'v1.forged.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
    ach_account_last4: '9999',
    ach_account_holder_name: 'Forged Name',
    ach_account_type: 'savings',
    stripe_connect_account_id: 'acct_forged',
    stripe_connect_status: 'active',
    stripe_connect_email: 'forged-connect@example.com',
    payout_threshold_cents: 1,
    pending_payout_cents: 999_999,
    total_earnings_cents: 999_999,
  };
}

/** The columns whose values differ between two versions of a row. */
function changed(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((k) => JSON.stringify(before?.[k]) !== JSON.stringify(after?.[k])).sort();
}

describe('mass-assigned fields take no effect', () => {
  it('signup: a new account is a customer, not an admin, active, with an id of its own', async () => {
    const a = await userRow(fx.people.A.id);
    const res = await send('anonymous', { method: 'POST', url: '/api/auth/signup', payload: { email: `new-${hex()}@example.com`, password: 'a long and unusual one', ...EXTRA(), status: 'suspended', id: fx.people.A.id } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user).toMatchObject({ role: 'customer', is_admin: false });
    const row = await userRow(res.json().user.id);
    expect(row).toMatchObject({ role: 'customer', is_admin: false, status: 'active', email_verified: false, total_earnings_cents: 0, pending_payout_cents: 0 });
    expect(row?.id).not.toBe(fx.people.A.id);
    expect(await userRow(fx.people.A.id)).toEqual(a);
  });

  // Each body also names A (user_id, id), to aim the change at A's row.
  it.each([
    { name: 'PATCH /api/studio/profile', method: 'PATCH', url: '/api/studio/profile', body: { bio: 'Only the bio changes.', ...PAYOUT_EXTRA() }, fields: ['bio', 'updated_at'] },
    { name: 'POST /api/users/update-channel', method: 'POST', url: '/api/users/update-channel', body: { channel_slug: 'bsnewslug' }, fields: ['updated_at', 'username'] },
    { name: 'POST /api/users/ensure-exists', method: 'POST', url: '/api/users/ensure-exists', body: { email: 'other@example.com', display_name: 'Other' }, fields: [] },
  ] as const)('$name as creator B changes only $fields of B, and nothing of A', async ({ method, url, body, fields }) => {
    const [a, b] = [await userRow(fx.people.A.id), await userRow(fx.people.B.id)];
    try {
      const res = await send('B', { method, url, payload: { ...body, ...EXTRA(), user_id: fx.people.A.id, id: fx.people.A.id } });
      expect(res.statusCode, res.body).toBe(200);
      expect(changed(b, await userRow(fx.people.B.id)).filter((k) => !(fields as readonly string[]).includes(k))).toEqual([]);
      expect(await userRow(fx.people.A.id)).toEqual(a);
    } finally {
      await t.db.updateTable('users').set({ username: b!.username, bio: b!.bio }).where('id', '=', fx.people.B.id).execute();
    }
  });

  it("payment setup as creator B: the route decides every payout column it writes, and nothing of A's changes", async () => {
    const [a, b] = [await userRow(fx.people.A.id), await userRow(fx.people.B.id)];
    const forged = { ...EXTRA(), ...PAYOUT_EXTRA(), user_id: fx.people.A.id, id: fx.people.A.id };
    const put = (url: string, payload: Record<string, unknown>) => send('B', { method: 'PUT', url, payload: { ...forged, ...payload } });
    try {
      let res = await put('/api/payouts/method', { method: 'ach', routing_number: '011000015', account_number: '24681357', holder_name: 'Maker B', account_type: 'checking' });
      expect(res.statusCode, res.body).toBe(200);
      let row = await userRow(fx.people.B.id);
      expect(row).toMatchObject({
        preferred_payment_method: 'ach', payout_enabled: true, bank_account_verified: false, ach_routing_last4: '0015', ach_account_last4: '1357',
        ach_account_holder_name: 'Maker B', ach_account_type: 'checking', paypal_email: b!.paypal_email, tax_id: b!.tax_id, tax_info_verified: b!.tax_info_verified,
        stripe_connect_account_id: null, stripe_connect_status: b!.stripe_connect_status, payout_threshold_cents: b!.payout_threshold_cents,
        pending_payout_cents: b!.pending_payout_cents, total_earnings_cents: b!.total_earnings_cents, role: 'creator', is_admin: false,
      });
      expect(t.app.sealedValues.open(row!.ach_routing_number_encrypted!, fx.people.B.id)).toBe('011000015');
      expect(t.app.sealedValues.open(row!.ach_account_number_encrypted!, fx.people.B.id)).toBe('24681357');

      res = await put('/api/payouts/method', { method: 'stripe_connect', email: 'b-connect@example.com' });
      expect(res.statusCode, res.body).toBe(200);
      row = await userRow(fx.people.B.id);
      expect(row).toMatchObject({ preferred_payment_method: 'stripe_connect', stripe_connect_email: 'b-connect@example.com', stripe_connect_status: 'pending' });
      expect(row!.stripe_connect_account_id).toMatch(/^acct_[A-Za-z0-9]{16}$/);

      res = await put('/api/payouts/tax-info', { email: 'b-tax@example.com' });
      expect(res.statusCode, res.body).toBe(200);
      row = await userRow(fx.people.B.id);
      expect(row).toMatchObject({ tax_id: 'b-tax@example.com', tax_info_verified: false, pending_payout_cents: b!.pending_payout_cents, payout_threshold_cents: b!.payout_threshold_cents });
      expect(await userRow(fx.people.A.id)).toEqual(a);
    } finally {
      const { paypal_email, tax_id, tax_info_verified, preferred_payment_method, payout_enabled, bank_account_verified, stripe_connect_email, stripe_connect_status } = b!;
      await t.db
        .updateTable('users')
        .set({
          paypal_email, tax_id, tax_info_verified, preferred_payment_method, payout_enabled, bank_account_verified, stripe_connect_email, stripe_connect_status,
          ach_routing_number_encrypted: b!.ach_routing_number_encrypted, ach_routing_last4: b!.ach_routing_last4,
          ach_account_number_encrypted: b!.ach_account_number_encrypted, ach_account_last4: b!.ach_account_last4,
          ach_account_holder_name: b!.ach_account_holder_name, ach_account_type: b!.ach_account_type,
          stripe_connect_account_id: b!.stripe_connect_account_id,
        })
        .where('id', '=', fx.people.B.id)
        .execute();
    }
  });

  it("upload: B's video is B's, unreviewed and unwatched, whatever the form says", async () => {
    const [clip, thumb] = [await testMedia('h264-small.mp4'), await testMedia('thumbnail.jpg')];
    const extras = { user_id: fx.people.A.id, creator_id: fx.people.A.id, status: 'approved', verification_status: 'approved', view_count: '999', is_admin: 'true', role: 'admin' };
    const { payload, headers } = await multipart([...Object.entries(extras).map(([name, value]) => ({ name, value })), ...uploadParts(clip, thumb, { title: 'Mass assigned' })]);
    const res = await send('B', { method: 'POST', url: '/api/videos', payload, headers });
    expect(res.statusCode, res.body).toBe(201);
    const row = await videoRow(res.json().video.id);
    expect(row).toMatchObject({ user_id: fx.people.B.id, verification_status: 'verified_via_supabase_auth', view_count: 0, title: 'Mass assigned' });
    await t.db.deleteFrom('videos').where('id', '=', row!.id).execute();
  }, 30_000);

  it("create-product: the video decides the creator and the session who made it; the names sent are not stored", async () => {
    const res = await send('C', {
      method: 'POST',
      url: '/api/create-product',
      payload: { videoUrl: mediaPath(fx.videos.A.public), screenshots: [fx.pngDataUrl], videoTitle: 'Not the title', creatorName: 'Maker B', ...EXTRA(), created_by: fx.people.B.id, video_id: fx.videos.B.public },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.db.selectFrom('merch_products').selectAll().where('id', '=', res.json().product_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ video_id: fx.videos.A.public, creator_id: fx.people.A.id, created_by: fx.people.C.id, video_title: fx.titles[fx.videos.A.public], creator_name: 'Maker A' });
  });

  it.each(['/api/create-checkout-session', '/api/place-order'] as const)('%s: prices come from the catalogue, the order is pending and attributed by the server', async (url) => {
    const shirt = catalogueProduct(t, 'unisex-tshirt');
    const res = await send('C', {
      method: 'POST',
      url,
      payload: {
        shipping_address: { zip: '10001', country_code: 'US' },
        cart: [{ product_id: fx.products.a, variant_id: variantOf(shirt, 'L'), quantity: 1, selected_screenshot: 0, ...EXTRA(), video_id: fx.videos.B.public }],
        ...EXTRA(),
        customer_user_id: fx.people.B.id,
        subtotal_cents: 1,
        shipping_cents: 0,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const order = await orderRow(res.json().order_id);
    const unit = unitPriceCents(shirt, 'L');
    expect(order).toMatchObject({ status: 'pending', customer_user_id: fx.people.C.id, subtotal_cents: unit, paid_at: null });
    expect(order!.total_cents).toBe(unit + order!.shipping_cents);
    expect(order!.shipping_cents).toBeGreaterThan(0);
    const items = await t.db.selectFrom('order_items').selectAll().where('order_id', '=', order!.id).execute();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ unit_price_cents: shirt.priceCents, base_cost_cents: shirt.baseCostCents, line_total_cents: unit, creator_id: fx.people.A.id, video_id: fx.videos.A.public, merch_product_id: fx.products.a });
  });

  it("the paid fixture order (sent with every extra field) kept the catalogue's prices, and A earned the server's share", async () => {
    const shirt = catalogueProduct(t, 'unisex-tshirt');
    const order = await orderRow(fx.orders.c.id);
    const unit = unitPriceCents(shirt, 'M');
    expect(order).toMatchObject({ status: 'paid', customer_user_id: fx.people.C.id, subtotal_cents: unit * 2 });
    const items = await t.db.selectFrom('order_items').selectAll().where('order_id', '=', fx.orders.c.id).execute();
    expect(items.map((i) => [i.creator_id, i.unit_price_cents, i.quantity])).toEqual([[fx.people.A.id, shirt.priceCents, 2]]);
    const earnings = await t.db.selectFrom('earnings').selectAll().where('order_item_id', '=', items[0]!.id).execute();
    expect(earnings).toHaveLength(1);
    expect(earnings[0]).toMatchObject({ user_id: fx.people.A.id, kind: 'sale', creator_share_cents: lineEarning(items[0]!).creatorShareCents });
    // Nothing for B, whose id every extra field named.
    expect(await t.db.selectFrom('earnings').select('id').where('user_id', '=', fx.people.B.id).where('order_item_id', '=', items[0]!.id).execute()).toEqual([]);
  });
});
