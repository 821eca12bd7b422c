/**
 * Checkout load for the benchmarks (bench:checkout, bench:scale): buyers at once each open a
 * checkout session and pay on the embedded provider's hosted page with the test card (or with
 * a signed completed event), then the orders are followed until every one is with the print
 * shop; afterwards the database itself is counted.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import sharp from 'sharp';
import type { Catalogue } from '../../shared/catalogue/parse.ts';
import { unitPriceCents } from '../../shared/shop/pricing.ts';
import { quoteShipping } from '../../shared/shop/shipping.ts';
import { variantId } from '../../shared/shop/variants.ts';
import { signWebhookBody } from '../../api/integrations/stripe/index.ts';
import { createUser } from '../../api/modules/accounts/index.ts';
import { openDatabase, type DatabaseTarget } from '../../api/platform/db/database.ts';
import type { DB } from '../../api/platform/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../../api/platform/sessions/sessions.ts';
import { appSecret } from '../../api/platform/settings/secrets.ts';
import { mediaUrl } from '../../api/platform/storage/media-urls.ts';

const FULFILLED = new Set(['submitted', 'in_production', 'shipped', 'delivered']);
const TEST_CARD = '4242 4242 4242 4242';

export interface Checkout {
  latencyMs: number;
  orderId: string;
  sessionId: string;
  url: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON; the status says what happened */
  }
  return { status: res.status, json, text };
}

/** `count` requests at once to GET /api/health: the floor of the machine and server. Latencies, sorted. */
export async function healthBurst(origin: string, count: number): Promise<number[]> {
  const latencies = await Promise.all(
    Array.from({ length: count }, async () => {
      const t0 = performance.now();
      const res = await fetch(`${origin}/api/health`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`health answered ${res.status}`);
      return performance.now() - t0;
    }),
  );
  return latencies.sort((a, b) => a - b);
}

/** The inputs of the first form on a page that posts, as name -> value. */
function parseForm(html: string, pageUrl: string): { action: string; fields: Map<string, string> } | null {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  const actionAttr = attr(form[1]!, 'action');
  const action = new URL((actionAttr?.[2] ?? actionAttr?.[3] ?? '').replace(/&amp;/g, '&') || pageUrl, pageUrl).toString();
  const fields = new Map<string, string>();
  for (const m of form[2]!.matchAll(/<(input|select|textarea)\b([^>]*)>/gi)) {
    const name = attr(m[2]!, 'name');
    if (!name) continue;
    const value = attr(m[2]!, 'value');
    fields.set(name[2] ?? name[3]!, (value?.[2] ?? value?.[3] ?? '').replace(/&amp;/g, '&'));
  }
  return { action, fields };
}

/** Pays on the embedded provider's hosted page as a buyer would: the form, filled with the test card. */
export async function payOnPage(url: string, origin: string): Promise<void> {
  const page = await fetch(url);
  const html = await page.text();
  if (!page.ok) throw new Error(`payment page answered ${page.status}`);
  const form = parseForm(html, url);
  if (!form) throw new Error('payment page has no form');
  const filled = new URLSearchParams();
  for (const [name, value] of form.fields) {
    const n = name.toLowerCase();
    if (/card|number|pan/.test(n) && !/name/.test(n)) filled.set(name, TEST_CARD);
    else if (/exp/.test(n)) filled.set(name, value || '12 / 34');
    else if (/cvc|cvv|security/.test(n)) filled.set(name, value || '123');
    else if (/email/.test(n)) filled.set(name, value || 'bench@example.com');
    else if (/zip|postal/.test(n)) filled.set(name, value || '10001');
    else if (/line1/.test(n)) filled.set(name, value || '1 Main St');
    else if (/city/.test(n)) filled.set(name, value || 'New York');
    else if (/state/.test(n)) filled.set(name, value || 'NY');
    else if (/name/.test(n)) filled.set(name, value || 'Bench Buyer');
    else filled.set(name, value);
  }
  const res = await fetch(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: filled.toString(),
    redirect: 'manual',
  });
  if (res.status >= 400) throw new Error(`payment page refused the test card: ${res.status} ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer();
}

/** The completed event the provider would send, signed here with the provider's secret. */
export async function payWithEvent(origin: string, c: Checkout, totalCents: number, secret: string): Promise<void> {
  const body = JSON.stringify({
    id: `evt_bench_${randomBytes(12).toString('hex')}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: c.sessionId,
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        amount_total: totalCents,
        currency: 'usd',
        metadata: { order_id: c.orderId },
        payment_intent: `pi_bench_${randomBytes(12).toString('hex')}`,
        customer_details: { email: 'bench@example.com' },
      },
    },
  });
  const res = await fetch(`${origin}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signWebhookBody(body, secret) },
    body,
  });
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

/** One buyer's checkout request: one item of the product's variant, shipped to New York. */
export function checkoutRequest(productId: string, variant: string, email: string, idempotencyKey: string) {
  return {
    shipping_address: { zip: '10001', country_code: 'US' },
    cart: [{ product_id: productId, variant_id: variant, quantity: 1, selected_screenshot: 0 }],
    email,
    idempotency_key: idempotencyKey,
  };
}

/** The buyers' emails: the orders counted afterwards are theirs (a warm-up's are not). */
const buyerEmail = (i: number) => `bench-${i}@example.com`;

/**
 * `count` checkouts, 10 at a time, left unpaid and not counted (their emails are not buyers'):
 * a server that has been serving, as a shop's is when a sale starts, its code compiled and its
 * database connections' caches filled.
 */
export async function warmUp(origin: string, productId: string, variant: string, count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, async (_, j) => {
        const key = `warmup-${tag}-${i + j}-${randomBytes(4).toString('hex')}`;
        const res = await postJson(`${origin}/api/create-checkout-session`, checkoutRequest(productId, variant, `warmup-${i + j}@example.com`, key));
        if (res.status !== 200) throw new Error(`warm-up checkout answered ${res.status}: ${res.text.slice(0, 200)}`);
      }),
    );
  }
}

export interface CheckoutLoad {
  origin: string;
  buyers: number;
  productId: string;
  variant: string;
  /** Distinguishes this run's idempotency keys. */
  tag: string;
  /** 'page' (the hosted page) unless the signed event is asked for, with the secret and the total it carries. */
  pay: { mode: 'page' } | { mode: 'event'; secret: string; totalCents: number };
  timeoutMs: number;
  /** Called once, when the last buyer's session request is answered (payments may still run). */
  onAnswered?: () => void;
}

export interface CheckoutResult {
  checkouts: Checkout[];
  failures: string[];
  /** From the first request until every session was created and paid. */
  checkoutAndPayS: number;
  /** From the first request until every order was with the print shop (or the timeout). */
  wallS: number;
}

/** Every buyer at once: a checkout session each, paid, then followed until it is with the print shop. */
export async function runCheckouts(load: CheckoutLoad): Promise<CheckoutResult> {
  const { origin } = load;
  const started = performance.now();
  const failures: string[] = [];
  const checkouts: Checkout[] = [];
  let answered = 0;
  await Promise.all(
    Array.from({ length: load.buyers }, async (_, i) => {
      const t0 = performance.now();
      const key = `bench-${load.tag}-${i}-${randomBytes(4).toString('hex')}`;
      const res = await postJson(`${origin}/api/create-checkout-session`, checkoutRequest(load.productId, load.variant, buyerEmail(i), key));
      const latencyMs = performance.now() - t0;
      if (++answered === load.buyers) load.onAnswered?.();
      if (res.status !== 200) {
        failures.push(`checkout ${i}: ${res.status} ${res.text.slice(0, 200)}`);
        return;
      }
      const c: Checkout = { latencyMs, orderId: String(res.json.order_id), sessionId: String(res.json.session_id), url: String(res.json.url) };
      checkouts.push(c);
      try {
        if (load.pay.mode === 'page') await payOnPage(c.url, origin);
        else await payWithEvent(origin, c, load.pay.totalCents, load.pay.secret);
      } catch (err) {
        failures.push(`payment ${i}: ${(err as Error).message}`);
      }
    }),
  );
  const paidAt = performance.now();

  // Until every order is with the print shop (the job runners in the server do the work).
  const open = new Set(checkouts.map((c) => c.sessionId));
  const deadline = Date.now() + load.timeoutMs;
  while (open.size > 0 && Date.now() < deadline) {
    await Promise.all(
      [...open].map(async (id) => {
        const res = await fetch(`${origin}/api/checkout/sessions/${id}`);
        if (res.status !== 200) return void (await res.arrayBuffer());
        const body = (await res.json()) as { status: string };
        if (FULFILLED.has(body.status)) open.delete(id);
      }),
    );
    if (open.size > 0) await sleep(500);
  }
  const doneAt = performance.now();
  if (open.size > 0) failures.push(`${open.size} orders not with the print shop after ${load.timeoutMs / 1000} s`);
  return { checkouts, failures, checkoutAndPayS: (paidAt - started) / 1000, wallS: (doneAt - started) / 1000 };
}

export interface OrderCounts {
  orders: number;
  paidTransitions: number;
  paidOrders: number;
  fulfilJobs: number;
  fulfilled: number;
  submissions: number;
  earnings: number;
  emails: number;
}

/** What the database holds after a run: each must equal the number of buyers (orders: the buyers', not a warm-up's). */
export async function countOrders(target: DatabaseTarget): Promise<OrderCounts> {
  const database = await openDatabase(target);
  try {
    const n = async (q: string) => {
      const r = await sql<{ n: number }>`${sql.raw(q)}`.execute(database.db);
      return Number(r.rows[0]!.n);
    };
    return {
      orders: await n("select count(*) as n from orders where customer_email like 'bench-%@example.com'"),
      paidTransitions: await n("select count(*) as n from order_status_history where to_status = 'paid'"),
      paidOrders: await n("select count(distinct order_id) as n from order_status_history where to_status = 'paid'"),
      fulfilJobs: await n("select count(*) as n from jobs where kind = 'order.fulfil'"),
      fulfilled: await n("select count(*) as n from orders where status in ('submitted', 'in_production', 'shipped', 'delivered') and fulfilment_order_id is not null"),
      submissions: await n('select count(*) as n from embedded_pod_orders'),
      earnings: await n("select count(*) as n from earnings where kind = 'sale'"),
      emails: await n("select count(*) as n from email_outbox where template = 'order-confirmation'"),
    };
  } finally {
    await database.close();
  }
}

export interface ShopSetup {
  videoKey: string;
  /** A signed-in buyer's session token, for making the merch product through the API. */
  buyerToken: string;
  variant: string;
  /** What one item costs with shipping to the bench's ZIP. */
  totalCents: number;
  /** The embedded payment provider's webhook secret, for signed events. */
  webhookSecret: string;
}

/** Before the server starts: a creator with a video, a signed-in buyer, and the product's variant and price. */
export async function prepareShop(db: Kysely<DB>, catalogue: Catalogue, sku: string): Promise<ShopSetup> {
  const creator = await createUser(db, { email: 'bench-creator@example.com', displayName: 'Bench Creator', role: 'creator', emailVerified: true });
  const videoKey = 'bench/checkout-clip.mp4';
  await db
    .insertInto('videos')
    .values({ user_id: creator.id, title: 'Bench clip', video_key: videoKey, content_type: 'video/mp4', size_bytes: 1000, duration_ms: 5000 })
    .execute();
  const buyer = await createUser(db, { email: 'bench-buyer@example.com', displayName: 'Bench Buyer', role: 'customer', emailVerified: true });
  const session = await createSession(db, buyer.id, 1, {});
  const webhookSecret = `whsec_${await appSecret(db, 'embedded-payments.webhook')}`;
  const product = catalogue.products.find((p) => p.sku === sku);
  if (!product) throw new Error(`no catalogue product ${sku}`);
  const size = product.sizes[0] ?? null;
  const variant = variantId({ sku: product.sku, colour: product.colours[0]!, handleColour: product.handleColours[0] ?? null, size });
  const totalCents = unitPriceCents(product, size) + quoteShipping([{ bucket: product.shippingBucket, quantity: 1 }], 'US', catalogue.shipping).cents;
  return { videoKey, buyerToken: session.token, variant, totalCents, webhookSecret };
}

/** Once the server serves: the merch product, made through the API as the buyer would. Answers its id. */
export async function makeProduct(origin: string, shop: ShopSetup): Promise<string> {
  const screenshot = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#2a6f97' } }).jpeg({ quality: 90 }).toBuffer();
  const made = await postJson(
    `${origin}/api/create-product`,
    { videoUrl: mediaUrl('videos', shop.videoKey), screenshots: [`data:image/jpeg;base64,${screenshot.toString('base64')}`], screenshot_timestamp: 1 },
    { origin, cookie: `${SESSION_COOKIE}=${shop.buyerToken}` },
  );
  if (made.status !== 200) throw new Error(`create-product answered ${made.status}: ${made.text.slice(0, 300)}`);
  return String(made.json.product_id);
}
