/**
 * Checkout under load, end to end: 200 buyers at once each open a checkout session, pay on the
 * embedded provider's hosted page with the test card, and the payment event reaches the
 * webhook; then the fulfilment jobs run until every order is with the print shop. The server
 * runs in its own process (real HTTP on 127.0.0.1, as in production), on the embedded PGlite
 * and then on PostgreSQL, in one run. Afterwards the database itself is counted: orders
 * created, paid (one paid transition each), fulfilled (one submission each), and the earnings
 * and emails that came with them; each must equal the number of buyers.
 *
 *   npm run bench:checkout                     both databases
 *   BENCH_DB=pglite npm run bench:checkout     one of them
 *   BENCH_ORDERS=50                            fewer buyers
 *   BENCH_DATABASE_URL=postgres://...          the PostgreSQL server (a scratch database is made on it and dropped)
 *   BENCH_PAY=event                            skip the hosted page: sign the completed event here instead
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { unitPriceCents } from '../shared/shop/pricing.ts';
import { quoteShipping } from '../shared/shop/shipping.ts';
import { variantId } from '../shared/shop/variants.ts';
import { createSession, SESSION_COOKIE } from '../api/platform/sessions/sessions.ts';
import { databaseTarget, prepare } from '../api/bootstrap.ts';
import { loadConfig } from '../api/platform/config/config.ts';
import { createScratchDatabase, openDatabase } from '../api/platform/db/database.ts';
import { signWebhookBody } from '../api/integrations/stripe/index.ts';
import { createUser } from '../api/modules/accounts/index.ts';
import { mediaUrl } from '../api/platform/storage/media-urls.ts';
import { appSecret } from '../api/platform/settings/secrets.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 3191);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 600) * 1000;
/** Stickers print at 3 x 3 in (900 px square): the bench measures checkout, not image rendering. */
const SKU = process.env.BENCH_SKU ?? 'kiss-cut-stickers';
const FULFILLED = new Set(['submitted', 'in_production', 'shipped', 'delivered']);
const TEST_CARD = '4242 4242 4242 4242';

type Kind = 'pglite' | 'postgres';

interface Checkout {
  latencyMs: number;
  orderId: string;
  sessionId: string;
  url: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function waitHealthy(child: ChildProcess) {
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${ORIGIN}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  throw new Error('server did not start');
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
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
async function payOnPage(url: string): Promise<void> {
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
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    body: filled.toString(),
    redirect: 'manual',
  });
  if (res.status >= 400) throw new Error(`payment page refused the test card: ${res.status} ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer();
}

/** The completed event the provider would send, signed here with the provider's secret. */
async function payWithEvent(c: Checkout, totalCents: number, secret: string): Promise<void> {
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
  const res = await fetch(`${ORIGIN}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signWebhookBody(body, secret) },
    body,
  });
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

interface Counts {
  orders: number;
  paidTransitions: number;
  paidOrders: number;
  fulfilJobs: number;
  fulfilled: number;
  submissions: number;
  earnings: number;
  emails: number;
}

async function countDatabase(target: ReturnType<typeof databaseTarget>): Promise<Counts> {
  const database = await openDatabase(target);
  try {
    const n = async (q: string) => {
      const r = await sql<{ n: number }>`${sql.raw(q)}`.execute(database.db);
      return Number(r.rows[0]!.n);
    };
    return {
      orders: await n('select count(*) as n from orders'),
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

async function run(kind: Kind) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-bench-checkout-'));
  const scratch = kind === 'postgres' ? await createScratchDatabase(PG_BASE, 'framemerch_bench') : null;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    // Every bench buyer comes from 127.0.0.1, so loopback is let past the per-address checkout limit.
    CHECKOUT_LIMIT_LOOPBACK: 'false',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? '',
    PORT: String(PORT),
    PUBLIC_URL: ORIGIN,
    WEB_DIST: 'none',
    SEED_DEMO: 'false',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ADMIN_PASSWORD: 'bench admin password',
    POD_STEP_MS: process.env.POD_STEP_MS ?? '200',
    JOB_POLL_MS: process.env.JOB_POLL_MS ?? '50',
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    PRINTFUL_API_KEY: '',
  };
  const config = loadConfig(env);
  const target = databaseTarget(config);

  // A creator with a video, and a buyer's session for making the merch product through the API.
  const prepared = await prepare(config, {});
  const db = prepared.database.db;
  const creator = await createUser(db, { email: 'bench-creator@example.com', displayName: 'Bench Creator', role: 'creator', emailVerified: true });
  const videoKey = 'bench/checkout-clip.mp4';
  await db
    .insertInto('videos')
    .values({ user_id: creator.id, title: 'Bench clip', video_key: videoKey, content_type: 'video/mp4', size_bytes: 1000, duration_ms: 5000 })
    .execute();
  const buyer = await createUser(db, { email: 'bench-buyer@example.com', displayName: 'Bench Buyer', role: 'customer', emailVerified: true });
  const session = await createSession(db, buyer.id, 1, {});
  const secret = `whsec_${await appSecret(db, 'embedded-payments.webhook')}`;
  const product = prepared.catalogue.products.find((p) => p.sku === SKU);
  if (!product) throw new Error(`no catalogue product ${SKU}`);
  const size = product.sizes[0] ?? null;
  const variant = variantId({ sku: product.sku, colour: product.colours[0]!, handleColour: product.handleColours[0] ?? null, size });
  const expectedTotal =
    unitPriceCents(product, size) + quoteShipping([{ bucket: product.shippingBucket, quantity: 1 }], 'US', prepared.catalogue.shipping).cents;
  await prepared.database.close();

  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore'],
  });
  try {
    await waitHealthy(child);
    const screenshot = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#2a6f97' } }).jpeg({ quality: 90 }).toBuffer();
    const made = await postJson(
      `${ORIGIN}/api/create-product`,
      { videoUrl: mediaUrl('videos', videoKey), screenshots: [`data:image/jpeg;base64,${screenshot.toString('base64')}`], screenshot_timestamp: 1 },
      { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${session.token}` },
    );
    if (made.status !== 200) throw new Error(`create-product answered ${made.status}: ${made.text.slice(0, 300)}`);
    const productId = String(made.json.product_id);

    const payMode = process.env.BENCH_PAY === 'event' ? 'event' : 'page';
    const started = performance.now();
    const failures: string[] = [];
    const checkouts: Checkout[] = [];
    await Promise.all(
      Array.from({ length: ORDERS }, async (_, i) => {
        const t0 = performance.now();
        const res = await postJson(`${ORIGIN}/api/create-checkout-session`, {
          shipping_address: { zip: '10001', country_code: 'US' },
          cart: [{ product_id: productId, variant_id: variant, quantity: 1, selected_screenshot: 0 }],
          email: `bench-${i}@example.com`,
          idempotency_key: `bench-${kind}-${i}-${randomBytes(4).toString('hex')}`,
        });
        const latencyMs = performance.now() - t0;
        if (res.status !== 200) {
          failures.push(`checkout ${i}: ${res.status} ${res.text.slice(0, 200)}`);
          return;
        }
        const c: Checkout = { latencyMs, orderId: String(res.json.order_id), sessionId: String(res.json.session_id), url: String(res.json.url) };
        checkouts.push(c);
        try {
          if (payMode === 'page') await payOnPage(c.url);
          else await payWithEvent(c, expectedTotal, secret);
        } catch (err) {
          failures.push(`payment ${i}: ${(err as Error).message}`);
        }
      }),
    );
    const paidAt = performance.now();

    // Wait for every order to reach the print shop (the job runner in the server does the work).
    const open = new Set(checkouts.map((c) => c.sessionId));
    const deadline = Date.now() + TIMEOUT_MS;
    while (open.size > 0 && Date.now() < deadline) {
      await Promise.all(
        [...open].map(async (id) => {
          const res = await fetch(`${ORIGIN}/api/checkout/sessions/${id}`);
          if (res.status !== 200) return void (await res.arrayBuffer());
          const body = (await res.json()) as { status: string };
          if (FULFILLED.has(body.status)) open.delete(id);
        }),
      );
      if (open.size > 0) await sleep(500);
    }
    const doneAt = performance.now();
    if (open.size > 0) failures.push(`${open.size} orders not with the print shop after ${TIMEOUT_MS / 1000} s`);

    await stop(child);
    const counts = await countDatabase(target);
    const latencies = checkouts.map((c) => c.latencyMs).sort((a, b) => a - b);
    return {
      kind,
      payMode,
      counts,
      distinctOrders: new Set(checkouts.map((c) => c.orderId)).size,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      checkoutAndPayS: (paidAt - started) / 1000,
      wallS: (doneAt - started) / 1000,
      failures,
    };
  } finally {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const kinds = (process.env.BENCH_DB ? [process.env.BENCH_DB] : ['pglite', 'postgres']) as Kind[];
console.log(`bench:checkout: ${ORDERS} concurrent buyers (${SKU}), server in its own process, real HTTP on ${ORIGIN}`);
let mismatch = false;
for (const kind of kinds) {
  if (kind === 'postgres') {
    const why = await postgresReachable();
    if (why) {
      console.log(`\npostgres\n  skipped: ${PG_BASE} is not reachable (${why})`);
      continue;
    }
  }
  const r = await run(kind);
  const check = (label: string, value: number) => {
    const ok = value === ORDERS;
    mismatch ||= !ok;
    return `  ${label.padEnd(44)} ${String(value).padStart(5)}  ${ok ? 'OK' : 'MISMATCH'}`;
  };
  console.log(`\n${kind} (payment through ${r.payMode === 'page' ? 'the hosted page with the test card' : 'signed events sent by the bench'})`);
  console.log(check('orders created', r.counts.orders));
  console.log(check('  distinct order ids answered', r.distinctOrders));
  console.log(check('orders paid (one paid transition each)', r.counts.paidTransitions));
  console.log(check('  distinct orders paid', r.counts.paidOrders));
  console.log(check('orders fulfilled (with the print shop)', r.counts.fulfilled));
  console.log(check('  fulfilment jobs', r.counts.fulfilJobs));
  console.log(check('  print-shop submissions', r.counts.submissions));
  console.log(check('  creator earnings (one item per order)', r.counts.earnings));
  console.log(check('  confirmation emails', r.counts.emails));
  console.log(`  session creation latency                      p50 ${r.p50.toFixed(0)} ms   p99 ${r.p99.toFixed(0)} ms`);
  console.log(`  checkouts and payments done after             ${r.checkoutAndPayS.toFixed(1)} s`);
  console.log(`  total wall time (until all fulfilled)         ${r.wallS.toFixed(1)} s`);
  if (r.failures.length > 0) {
    mismatch = true;
    console.log(`  ${r.failures.length} failures, first: ${r.failures.slice(0, 3).join(' | ')}`);
  }
}
process.exit(mismatch ? 1 : 0);
