import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Updateable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue, syncCatalogue } from '../../modules/merch/index.ts';
import { freshDatabase, type TestDatabase } from '../../test/harness.ts';
import { loadMigrations, migrate, MigrationError } from './migrate.ts';
import type { UsersTable } from './schema.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
  await syncCatalogue(t.database.db, await readCatalogue());
});
afterAll(async () => t?.drop());

const db = () => t.database.db;

async function newUser(email: string, username: string) {
  return db().insertInto('users').values({ email, username, display_name: username }).returning('id').executeTakeFirstOrThrow();
}

/** Expects the statement to be refused by the database, and nothing of it kept. */
async function refused(fn: () => Promise<unknown>, pattern: RegExp) {
  await expect(fn()).rejects.toThrow(pattern);
}

describe('migrations', () => {
  it('have all run once, and running again applies nothing', async () => {
    const files = await loadMigrations();
    const rows = await db().selectFrom('schema_migrations').select(['version']).orderBy('version').execute();
    expect(rows.map((r) => r.version)).toEqual(files.map((f) => f.version));
    expect(await migrate(db())).toEqual([]);
  });

  it('refuse an applied migration that was edited afterwards', async () => {
    const files = await loadMigrations();
    const edited = files.map((f, i) => (i === 0 ? { ...f, checksum: 'x'.repeat(64) } : f));
    await expect(migrate(db(), edited)).rejects.toThrow(MigrationError);
  });

  it('leave nothing of a migration that fails halfway', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fm-mig-'));
    await writeFile(path.join(dir, '9001_half.sql'), 'CREATE TABLE half_done (id int);\nSELECT 1/0;\n');
    const broken = [...(await loadMigrations()), ...(await loadMigrations(dir))];
    await expect(migrate(db(), broken)).rejects.toThrow(/division by zero/);
    const exists = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name = 'half_done'`.execute(db());
    expect(exists.rows[0]!.n).toBe(0);
    const recorded = await db().selectFrom('schema_migrations').select('version').where('version', '=', 9001).execute();
    expect(recorded).toEqual([]);
  });
});

describe('constraints live in the database', () => {
  it('keeps emails and channel slugs unique whatever their case', async () => {
    await newUser('Case@Example.com', 'casey');
    await refused(() => newUser('case@EXAMPLE.com', 'casey2'), /users_email_ci|duplicate key/);
    await refused(() => newUser('other@example.com', 'CASEY'), /username|check|duplicate key/);
  });

  it('refuses slugs that are not lowercase alphanumerics and unknown roles or statuses', async () => {
    await refused(() => newUser('a1@example.com', 'has space'), /check/);
    await refused(
      () => db().insertInto('users').values({ email: 'a2@example.com', username: 'ab2', display_name: 'x', role: 'wizard' as 'creator' }).execute(),
      /check/,
    );
    await refused(
      () => db().insertInto('users').values({ email: 'a3@example.com', username: 'ab3', display_name: 'x', status: 'gone' as 'active' }).execute(),
      /check/,
    );
  });

  it('refuses negative money and prices below cost', async () => {
    const u = await newUser('money@example.com', 'money');
    await refused(() => db().updateTable('users').set({ total_earnings_cents: -1 }).where('id', '=', u.id).execute(), /check/);
    await refused(() => db().updateTable('users').set({ payout_threshold_cents: -1 }).where('id', '=', u.id).execute(), /check/);
    await refused(
      () => db().updateTable('catalogue_products').set({ base_cost_cents: 999_999 }).where('sku', '=', 'unisex-tshirt').execute(),
      /check/,
    );
  });

  it('lets the pending payout go below zero (a refund after a payout)', async () => {
    const u = await newUser('refunded@example.com', 'refunded');
    await db().updateTable('users').set({ pending_payout_cents: -1250 }).where('id', '=', u.id).execute();
    const row = await db().selectFrom('users').select('pending_payout_cents').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(Number(row.pending_payout_cents)).toBe(-1250);
  });

  it('keeps no plaintext routing number, and no bank number without its last 4 digits (or the reverse)', async () => {
    const columns = await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'users'`.execute(db());
    const names = columns.rows.map((c) => c.name);
    expect(names).not.toContain('ach_routing_number');
    expect(names).toEqual(
      expect.arrayContaining(['ach_routing_number_encrypted', 'ach_routing_last4', 'ach_account_last4', 'ach_account_holder_name', 'stripe_connect_email']),
    );
    const u = await newUser('bank@example.com', 'bank');
    const set = (values: Updateable<UsersTable>) => db().updateTable('users').set(values).where('id', '=', u.id).execute();
    await refused(() => set({ ach_routing_number_encrypted: 'sealed' }), /check/);
    await refused(() => set({ ach_account_last4: '1234' }), /check/);
    await refused(() => set({ ach_routing_number_encrypted: 'sealed', ach_routing_last4: '12a4' }), /check/);
    await refused(() => set({ ach_account_number_encrypted: 'sealed', ach_account_last4: '12345' }), /check/);
    await set({ ach_routing_number_encrypted: 'sealed', ach_routing_last4: '0021', ach_account_number_encrypted: 'sealed', ach_account_last4: '6789' });
  });

  it('refuses a video for a user that does not exist, and one with a bad status', async () => {
    const base = { title: 'x', video_key: 'ab/x.mp4', content_type: 'video/mp4' as const, size_bytes: 10 };
    await refused(() => db().insertInto('videos').values({ ...base, user_id: '00000000-0000-4000-8000-000000000000' }).execute(), /foreign key/);
    const u = await newUser('vid@example.com', 'vid');
    await refused(
      () => db().insertInto('videos').values({ ...base, user_id: u.id, verification_status: 'maybe' as 'approved' }).execute(),
      /check/,
    );
  });

  it('keeps an order total equal to subtotal plus shipping, and line totals equal to price times quantity', async () => {
    await refused(
      () => db().insertInto('orders').values({ shipping_zip: '10001', shipping_country: 'US', subtotal_cents: 1000, shipping_cents: 475, total_cents: 1400 }).execute(),
      /check/,
    );
    const order = await db()
      .insertInto('orders')
      .values({ shipping_zip: '10001', shipping_country: 'US', subtotal_cents: 2169, shipping_cents: 475, total_cents: 2644 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = {
      order_id: order.id, position: 0, sku: 'unisex-tshirt', product_name: 'Unisex T-Shirt', colour: 'Black', size: 'M',
      quantity: 2, unit_price_cents: 2169, base_cost_cents: 1169,
    };
    await refused(() => db().insertInto('order_items').values({ ...item, line_total_cents: 2169 }).execute(), /check/);
    await db().insertInto('order_items').values({ ...item, line_total_cents: 4338 }).execute();
    await refused(
      () => db().insertInto('orders').values({ shipping_zip: '1', shipping_country: 'FR' as 'US', subtotal_cents: 0, shipping_cents: 0, total_cents: 0 }).execute(),
      /check/,
    );
  });

  it('records a webhook event id only once', async () => {
    await db().insertInto('processed_webhook_events').values({ provider: 'stripe', event_id: 'evt_1', event_type: 'checkout.session.completed' }).execute();
    await refused(
      () => db().insertInto('processed_webhook_events').values({ provider: 'stripe', event_id: 'evt_1', event_type: 'checkout.session.completed' }).execute(),
      /duplicate key/,
    );
  });

  it('ships the default payout methods with fees in basis points and cents', async () => {
    const rows = await db().selectFrom('payment_method_options').selectAll().orderBy('sort_order').execute();
    expect(rows.map((r) => [r.method_name, r.fees_basis_points, r.fees_fixed_cents, r.processing_time_days, r.min_payout_cents])).toEqual([
      ['paypal', 290, 30, 1, 5000],
      ['ach', 50, 25, 3, 5000],
      ['stripe_connect', 290, 30, 2, 2500],
    ]);
  });
});
