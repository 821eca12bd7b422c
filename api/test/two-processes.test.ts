/**
 * Two API processes on one PostgreSQL database, as behind a load balancer: both run every
 * background loop (jobs, mail, the embedded payment provider's deliveries, the embedded print
 * shop), and the test sends its requests to one or the other on purpose. Checkouts are opened on
 * one process and paid on the other; every payment event reaches the webhook of the first (the
 * site's address); then each fulfilment, each confirmation email and the month's payout must
 * happen exactly once, and a per-address rate limit must hold across both processes.
 *
 * Two processes need a PostgreSQL server (the embedded database serves one): the one
 * TEST_DATABASE_URL names, else this machine's on 127.0.0.1:5432; a scratch database is made
 * on it and dropped.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { prepare, type Prepared } from '../bootstrap.ts';
import { loadConfig } from '../platform/config/config.ts';
import { createScratchDatabase, openDatabase, type Database } from '../platform/db/database.ts';
import type { DB } from '../platform/db/schema.ts';
import { QUOTES_PER_MINUTE } from '../modules/checkout/routes.ts';
import { variantId } from '../../shared/shop/variants.ts';
import { merchProduct } from './fulfilment-helpers.ts';
import { earn, payoutCreator } from './payout-support.ts';
import { freePort } from './ports.ts';
import { serverGroup, startServers } from './server-process.ts';
import { TEST_PAYOUT_KEYS } from './harness.ts';
import { TEST_ADDRESS } from './checkout-support.ts';

const SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORDERS = 6;
const SKU = 'kiss-cut-stickers';
const FULFILLED = ['submitted', 'in_production', 'shipped', 'delivered'] as const;

let scratch: { url: string; drop(): Promise<void> } | null = null;
let dataDir = '';
let prepared: Prepared | null = null;
let check: Database | null = null;
let db: Kysely<DB>;
const servers = serverGroup();
const ports: number[] = [];
let site = '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    for (const c of servers.children) if (c.exitCode !== null) throw new Error(`a server process exited with ${c.exitCode} while waiting for ${what}`);
    await sleep(250);
  }
}

const post = (port: number, url: string, body: unknown) =>
  fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site },
    body: JSON.stringify(body),
  });

/** The number of rows a query answers. */
const rows = async (q: { execute(): Promise<unknown[]> }) => (await q.execute()).length;

let payee = '';

beforeAll(async () => {
  scratch = await createScratchDatabase(SERVER, 'framemerch_two');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-two-'));
  ports.push(await freePort(), await freePort());
  site = `http://127.0.0.1:${ports[0]}`;
  const env = {
    DATABASE_URL: scratch.url,
    DATA_DIR: dataDir,
    PUBLIC_URL: site,
    SEED_DEMO: 'false',
    // The per-address limits apply to 127.0.0.1, where every request of this test comes from.
    CHECKOUT_LIMIT_LOOPBACK: 'true',
    PAYOUT_ENCRYPTION_KEYS: TEST_PAYOUT_KEYS,
    JOB_POLL_MS: '50',
    POD_STEP_MS: '100',
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    PRINTFUL_API_KEY: '',
  };
  // Migrated, the catalogue loaded, a product with a stored frame, and a creator owed last month's earnings.
  prepared = await prepare(loadConfig({ ...process.env, ...env, PORT: String(ports[0]), WEB_DIST: 'none', LOG_LEVEL: 'silent' }));
  db = prepared.database.db;
  const product = await merchProduct({ db, storage: prepared.storage, catalogue: prepared.catalogue });
  productId = product.productId;
  const sticker = prepared.catalogue.products.find((p) => p.sku === SKU)!;
  variant = variantId({ sku: SKU, colour: sticker.colours[0]!, handleColour: sticker.handleColours[0] ?? null, size: sticker.sizes[0] ?? null });
  payee = await payoutCreator(db, { seal: () => Buffer.alloc(0) } as never, { method: 'paypal', thresholdCents: 1000 });
  const lastMonth = new Date();
  lastMonth.setUTCDate(1);
  lastMonth.setUTCDate(0);
  await earn(db, payee, 10_000, lastMonth);
  await prepared.database.close();
  prepared = null;

  // Both processes at once: both make sure the month's payout run is queued, both poll for it.
  await startServers(env, ports, servers);
  check = await openDatabase({ url: scratch.url });
  db = check.db;
}, 240_000);

afterAll(async () => {
  await servers.stop();
  await prepared?.database.close();
  await check?.close();
  await scratch?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

let productId = '';
let variant = '';

describe('two API processes on one database', () => {
  it('holds one per-address rate limit across both processes', async () => {
    const body = { shipping_address: { zip: '10001', country_code: 'US' }, cart: [{ variant_id: variant, quantity: 1 }] };
    // Alternating, in small concurrent batches, so both processes count at the same time.
    const statuses: Array<{ port: number; status: number }> = [];
    const total = QUOTES_PER_MINUTE + 10;
    for (let i = 0; i < total; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, total - i) }, async (_, j) => {
          const port = ports[(i + j) % 2]!;
          const res = await post(port, '/api/calculate-shipping', body);
          await res.arrayBuffer();
          return { port, status: res.status };
        }),
      );
      statuses.push(...batch);
    }
    expect(statuses.filter((s) => s.status === 200)).toHaveLength(QUOTES_PER_MINUTE);
    const refused = statuses.filter((s) => s.status === 429);
    expect(refused).toHaveLength(10);
    // Each process alone saw about half the requests, far under the limit: a per-process count would have let every one through.
    for (const port of ports) expect(statuses.filter((s) => s.port === port).length).toBeLessThan(QUOTES_PER_MINUTE);
    expect(new Set(refused.map((s) => s.port)).size).toBe(2);
  });

  it('fulfils each order, sends each email and pays each payout once', async () => {
    const sessions: Array<{ orderId: string; sessionId: string }> = [];
    // Opened on the second process; the payment events go to the site's address: the first.
    for (let i = 0; i < ORDERS; i++) {
      const res = await post(ports[1]!, '/api/create-checkout-session', {
        shipping_address: { zip: '10001', country_code: 'US' },
        cart: [{ product_id: productId, variant_id: variant, quantity: 1, selected_screenshot: 0 }],
        email: `buyer-${i}@example.com`,
        idempotency_key: `two-processes-${randomUUID()}`,
      });
      const json = (await res.json()) as { order_id: string; url: string };
      expect(res.status, JSON.stringify(json)).toBe(200);
      sessions.push({ orderId: json.order_id, sessionId: new URL(json.url).pathname.split('/').pop()! });
    }
    // Each paid on the hosted page of one process or the other.
    await Promise.all(
      sessions.map(async (s, i) => {
        const form = new URLSearchParams({ email: `buyer-${i}@example.com`, card_number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', ...TEST_ADDRESS });
        const res = await fetch(`http://127.0.0.1:${ports[i % 2]}/pay/${s.sessionId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: site },
          body: form.toString(),
          redirect: 'manual',
        });
        await res.arrayBuffer();
        expect(res.status).toBeLessThan(400);
      }),
    );

    const ids = sessions.map((s) => s.orderId);
    await until('every order fulfilled', async () => (await rows(db.selectFrom('orders').select('id').where('id', 'in', ids).where('status', 'in', FULFILLED))) === ORDERS);
    await until('every confirmation sent', async () => (await rows(db.selectFrom('email_outbox').select('id').where('template', '=', 'order-confirmation').where('status', '=', 'sent'))) === ORDERS);
    await until('the payout made', async () => (await rows(db.selectFrom('payouts').select('id').where('user_id', '=', payee))) > 0);
    // Time for a second process to do any of it again, were it going to.
    await sleep(3000);

    // One paid transition per order, one fulfilment job each, run once, and one submission to the print shop.
    expect(await rows(db.selectFrom('order_status_history').select('id').where('order_id', 'in', ids).where('to_status', '=', 'paid'))).toBe(ORDERS);
    const jobs = await db.selectFrom('jobs').select(['status', 'attempts']).where('kind', '=', 'order.fulfil').execute();
    expect(jobs).toHaveLength(ORDERS);
    expect(jobs.every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
    expect(await rows(db.selectFrom('embedded_pod_orders').select('id'))).toBe(ORDERS);
    // Each payment event delivered and acknowledged once.
    const events = await db.selectFrom('embedded_payment_events').select(['type', 'attempts', 'delivered_at']).where('type', '=', 'checkout.session.completed').execute();
    expect(events).toHaveLength(ORDERS);
    expect(events.every((e) => e.attempts === 1 && e.delivered_at !== null)).toBe(true);
    // One confirmation per order, each sent in one attempt.
    const mails = await db.selectFrom('email_outbox').select(['status', 'attempts', 'to_address']).where('template', '=', 'order-confirmation').execute();
    expect(mails).toHaveLength(ORDERS);
    expect(new Set(mails.map((m) => m.to_address)).size).toBe(ORDERS);
    expect(mails.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
    // The month's run: one job, run once; one payout and one transfer at the provider.
    const runs = await db.selectFrom('jobs').select(['status', 'attempts']).where('kind', '=', 'payouts.run').where('status', '=', 'done').execute();
    expect(runs).toEqual([{ status: 'done', attempts: 1 }]);
    const payouts = await db.selectFrom('payouts').select(['id', 'amount_cents']).where('user_id', '=', payee).execute();
    expect(payouts).toHaveLength(1);
    // 70 percent of the 100 dollar margin.
    expect(payouts[0]!.amount_cents).toBe(7000);
    expect(await rows(db.selectFrom('embedded_payouts').select('idempotency_key'))).toBe(1);
  }, 240_000);
});
