/**
 * Key rotation against the test database: values sealed under k1 are all under k2 afterwards and
 * open to the same numbers; a run cut short is finished by the next; a value that cannot be opened
 * is reported and keeps its key in the ring. The NACHA entries' receiver numbers are sealed values
 * too: rotated with the users' bank details, so the period's file is still made once the old key
 * is retired, and an entry that cannot be opened keeps the old key in the ring.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/harness.ts';
import type { DB } from '../db/schema.ts';
import { loadOrCreateKeyFile, payoutKeyFile, readKeyFile } from './key-file.ts';
import { nachaFileFor, NachaPayouts, type NachaOrigin } from '../../integrations/payouts/index.ts';
import { countSealedValuesByKey, SEALED_COLUMNS } from './repository.ts';
import { rotateKeyFile, rotateTo, withCurrentKey } from './rotation.ts';
import { keyIdOf, SealedValues, type KeyRing } from './sealed-values.ts';

let tdb: TestDatabase;
let db: Kysely<DB>;
let dataDir: string;
beforeAll(async () => {
  tdb = await freshDatabase();
  db = tdb.database.db;
});
afterAll(async () => {
  await tdb?.drop();
});
beforeEach(async () => {
  await db.deleteFrom('users').execute();
  await db.deleteFrom('nacha_entries').execute();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-rotate-'));
});

interface Stored {
  id: string;
  account: string;
  routing: string | null;
}

/** `count` users with an account number sealed (and every other one a routing number too), under the ring's current key. */
async function seedSealed(ring: KeyRing, count: number): Promise<Stored[]> {
  const sv = new SealedValues(ring);
  const stored: Stored[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const account = String(100_000_000 + i * 7919);
    const routing = i % 2 === 0 ? String(21_000_021 + i).padStart(9, '0') : null;
    await db
      .insertInto('users')
      .values({
        id,
        email: `payee${i}@example.com`,
        username: `payee${i}`,
        display_name: `Payee ${i}`,
        ach_account_number_encrypted: sv.seal(account, id),
        ach_account_last4: account.slice(-4),
        ach_routing_number_encrypted: routing === null ? null : sv.seal(routing, id),
        ach_routing_last4: routing === null ? null : routing.slice(-4),
      })
      .execute();
    stored.push({ id, account, routing });
  }
  // A user with no bank details is walked past untouched.
  await db.insertInto('users').values({ email: 'nobank@example.com', username: 'nobank', display_name: 'No bank' }).execute();
  return stored;
}

async function sealedRows() {
  return db
    .selectFrom('users')
    .select(['id', 'ach_account_number_encrypted', 'ach_routing_number_encrypted'])
    .where('ach_account_number_encrypted', 'is not', null)
    .orderBy('id')
    .execute();
}

const ORIGIN: NachaOrigin = { immediateDestination: '021000021', immediateOrigin: '1987654321', companyName: 'FRAMEMERCH', companyId: '1987654321', odfi: '02100002' };
const PERIOD = '2026-10-01';

interface Entry {
  trace: string;
  routing: string;
  account: string;
}

/** `count` ACH payouts of PERIOD recorded as NACHA entries the way the payout run does, their numbers sealed under the ring's current key. */
async function seedNacha(ring: KeyRing, count: number): Promise<Entry[]> {
  const nacha = new NachaPayouts(db, { origin: ORIGIN, sealer: new SealedValues(ring) });
  const routings = ['021000021', '026009593', '011000015'];
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const routing = routings[i % routings.length]!;
    const account = String(4_000_000_000 + i * 104_729);
    const submitted = await nacha.submit({
      payoutId: randomUUID(),
      idempotencyKey: `${randomUUID()}:${PERIOD}`,
      userId: randomUUID(),
      period: PERIOD,
      amountCents: 10_000 + i,
      currency: 'USD',
      destination: { method: 'ach', routingNumber: routing, accountNumber: account, accountType: i % 2 === 0 ? 'checking' : 'savings', holderName: `Payee ${i}` },
    });
    expect(submitted.status).toBe('processing');
    entries.push({ trace: submitted.providerReference, routing, account });
  }
  return entries;
}

async function nachaRows() {
  return db.selectFrom('nacha_entries').select(['trace_number', 'destination_sealed']).orderBy('trace_number').execute();
}

/** The period's NACHA file made with `ring`: each entry's routing and account numbers in its entry record. */
async function expectNachaFile(ring: KeyRing, entries: Entry[]) {
  const file = (await nachaFileFor(db, PERIOD, { origin: ORIGIN, opener: new SealedValues(ring), createdAt: new Date(Date.UTC(2026, 9, 1, 9, 0)) }))!;
  expect(file.entries).toBe(entries.length);
  const records = file.content
    .trimEnd()
    .split('\n')
    .filter((r) => r.startsWith('6'));
  expect(records).toHaveLength(entries.length);
  for (const e of entries) {
    const record = records.find((r) => r.slice(79, 94) === e.trace)!;
    expect(record.slice(3, 12)).toBe(e.routing);
    expect(record.slice(12, 29)).toBe(e.account.padEnd(17));
  }
}

/** Every stored value is under `keyId` and opens, for its user, to what was sealed. */
async function expectAllUnder(ring: KeyRing, keyId: string, stored: Stored[]) {
  const sv = new SealedValues(ring);
  const rows = await sealedRows();
  expect(rows).toHaveLength(stored.length);
  for (const s of stored) {
    const row = rows.find((r) => r.id === s.id)!;
    expect(keyIdOf(row.ach_account_number_encrypted!)).toBe(keyId);
    expect(sv.open(row.ach_account_number_encrypted!, s.id)).toBe(s.account);
    if (s.routing === null) expect(row.ach_routing_number_encrypted).toBeNull();
    else {
      expect(keyIdOf(row.ach_routing_number_encrypted!)).toBe(keyId);
      expect(sv.open(row.ach_routing_number_encrypted!, s.id)).toBe(s.routing);
    }
  }
}

describe('rotating the payout key', () => {
  it('with the key file: 20 values sealed under k1 are all under k2 afterwards, open to the same numbers, and k1 leaves the file', async () => {
    const file = payoutKeyFile(dataDir);
    const k1Ring = await loadOrCreateKeyFile(file);
    const stored = await seedSealed(k1Ring, 20);
    const before = await sealedRows();

    const result = await rotateKeyFile(db, file);

    expect(result.newKeyId).toBe('k2');
    // 20 account numbers and 10 routing numbers.
    expect(result.report).toMatchObject({ seen: 30, rewrapped: 30, current: 0, failed: [], batches: 1 });
    expect(Object.fromEntries(result.usage)).toEqual({ k2: 30 });
    expect(result.retired).toEqual(['k1']);
    const file2 = (await readKeyFile(file))!;
    expect(file2.current).toBe('k2');
    expect([...file2.keys.keys()]).toEqual(['k2']);
    await expectAllUnder(file2, 'k2', stored);
    // Every value is new (fresh nonce, new key), and nothing but the sealed columns changed.
    const after = await sealedRows();
    for (const row of after) {
      const old = before.find((b) => b.id === row.id)!;
      expect(row.ach_account_number_encrypted).not.toBe(old.ach_account_number_encrypted);
    }

    // Run again with no new key: nothing left to do.
    const again = await rotateKeyFile(db, file, { rewrapOnly: true });
    expect(again.newKeyId).toBeNull();
    expect(again.report).toMatchObject({ seen: 30, rewrapped: 0, current: 30, failed: [] });
    expect(await sealedRows()).toEqual(after);
  });

  it('a run cut short after some batches is finished by the next run; the old key stays until then', async () => {
    const k1: KeyRing = { current: 'k1', keys: new Map([['k1', randomBytes(32)]]) };
    const stored = await seedSealed(k1, 25);
    const k2 = withCurrentKey(k1, 'k2', randomBytes(32));

    const crash = new Error('power cut');
    await expect(
      rotateTo(db, k2, {
        batchSize: 7,
        afterBatch: ({ index }) => {
          if (index === 2) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    const rows = await sealedRows();
    const underK2 = rows.filter((r) => keyIdOf(r.ach_account_number_encrypted!) === 'k2');
    // Two whole batches of 7 rows were committed, nothing of the third.
    expect(underK2).toHaveLength(14);

    const values = 25 + stored.filter((s) => s.routing !== null).length;
    const done = underK2.length + underK2.filter((r) => r.ach_routing_number_encrypted !== null).length;
    expect(Object.fromEntries(await countSealedValuesByKey(db))).toEqual({ k1: values - done, k2: done });

    const finish = await rotateTo(db, k2, { batchSize: 7 });
    expect(finish.report).toMatchObject({ seen: values, rewrapped: values - done, current: done, failed: [] });
    expect(finish.report.batches).toBe(4);
    expect(finish.retired).toEqual(['k1']);
    expect([...finish.ring.keys.keys()]).toEqual(['k2']);
    await expectAllUnder(k2, 'k2', stored);
  });

  it('reports a value that cannot be opened, leaves it, and keeps its key in the ring', async () => {
    const k1: KeyRing = { current: 'k1', keys: new Map([['k1', randomBytes(32)]]) };
    const stored = await seedSealed(k1, 4);
    // User 1's account number copied onto user 0's row: sealed for someone else.
    const copied = (await sealedRows()).find((r) => r.id === stored[1]!.id)!.ach_account_number_encrypted!;
    await db.updateTable('users').set({ ach_account_number_encrypted: copied }).where('id', '=', stored[0]!.id).execute();

    const k2 = withCurrentKey(k1, 'k2', randomBytes(32));
    const result = await rotateTo(db, k2);
    expect(result.report.failed).toEqual([{ table: 'users', column: 'ach_account_number_encrypted', rowId: stored[0]!.id, problem: expect.stringMatching(/refused/) }]);
    expect(result.report.rewrapped).toBe(result.report.seen - 1);
    expect(Object.fromEntries(result.usage)).toEqual({ k1: 1, k2: result.report.seen - 1 });
    expect(result.retired).toEqual([]);
    expect([...result.ring.keys.keys()]).toEqual(['k2', 'k1']);
    const row = (await sealedRows()).find((r) => r.id === stored[0]!.id)!;
    expect(row.ach_account_number_encrypted).toBe(copied);
  });
});

describe('rotating the payout key: NACHA entries', () => {
  it('every sealed column is in SEALED_COLUMNS', async () => {
    // By name: what a migration calls …_sealed or …_encrypted holds sealed values.
    const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND (column_name LIKE '%\\_sealed' OR column_name LIKE '%\\_encrypted')`.execute(db);
    expect(columns.map((c) => `${c.table_name}.${c.column_name}`).sort()).toEqual(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort());
  });

  it("an entry's numbers are sealed again under k2 with the users' bank details; k1 is retired and the period's file is made with k2 alone", async () => {
    const file = payoutKeyFile(dataDir);
    const k1Ring = await loadOrCreateKeyFile(file);
    const stored = await seedSealed(k1Ring, 3);
    const entries = await seedNacha(k1Ring, 3);
    const before = await nachaRows();
    // 3 account numbers, 2 routing numbers, 3 entries.
    expect(Object.fromEntries(await countSealedValuesByKey(db))).toEqual({ k1: 8 });

    const result = await rotateKeyFile(db, file);

    expect(result.newKeyId).toBe('k2');
    expect(result.report).toMatchObject({ seen: 8, rewrapped: 8, current: 0, failed: [], batches: 2 });
    expect(Object.fromEntries(result.usage)).toEqual({ k2: 8 });
    expect(result.retired).toEqual(['k1']);
    const k2Ring = (await readKeyFile(file))!;
    expect([...k2Ring.keys.keys()]).toEqual(['k2']);
    const after = await nachaRows();
    expect(after.map((r) => r.trace_number)).toEqual(before.map((r) => r.trace_number));
    for (const row of after) {
      expect(keyIdOf(row.destination_sealed)).toBe('k2');
      expect(row.destination_sealed).not.toBe(before.find((b) => b.trace_number === row.trace_number)!.destination_sealed);
    }
    await expectAllUnder(k2Ring, 'k2', stored);
    await expectNachaFile(k2Ring, entries);
    // Only k1 opens what was there before; nothing is left under it.
    await expect(nachaFileFor(db, PERIOD, { origin: ORIGIN, opener: new SealedValues(k1Ring) })).rejects.toThrow(/not in the key ring/);
  });

  it('a run cut short in the NACHA entries is finished by the next; k1 stays until then', async () => {
    const k1: KeyRing = { current: 'k1', keys: new Map([['k1', randomBytes(32)]]) };
    const stored = await seedSealed(k1, 3);
    const entries = await seedNacha(k1, 5);
    const k2 = withCurrentKey(k1, 'k2', randomBytes(32));

    const crash = new Error('power cut');
    const seenBatches: string[] = [];
    await expect(
      rotateTo(db, k2, {
        batchSize: 2,
        afterBatch: ({ index, table }) => {
          seenBatches.push(table);
          // Users in batches of 2 and 1, then the first 2 entries: cut before the rest.
          if (index === 3) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(seenBatches).toEqual(['users', 'users', 'nacha_entries']);
    expect((await nachaRows()).map((r) => keyIdOf(r.destination_sealed))).toEqual(['k2', 'k2', 'k1', 'k1', 'k1']);
    expect(Object.fromEntries(await countSealedValuesByKey(db))).toEqual({ k1: 3, k2: 7 });

    const finish = await rotateTo(db, k2, { batchSize: 2 });
    expect(finish.report).toMatchObject({ seen: 10, rewrapped: 3, current: 7, failed: [], batches: 5 });
    expect(finish.retired).toEqual(['k1']);
    await expectAllUnder(finish.ring, 'k2', stored);
    await expectNachaFile(finish.ring, entries);
  });

  it('an entry that cannot be opened is reported with its table and row, left as it is, and keeps k1 in the ring', async () => {
    const k1: KeyRing = { current: 'k1', keys: new Map([['k1', randomBytes(32)]]) };
    const stored = await seedSealed(k1, 2);
    const entries = await seedNacha(k1, 3);
    // Entry 1's numbers copied onto entry 0: sealed for another trace number.
    const copied = (await nachaRows()).find((r) => r.trace_number === entries[1]!.trace)!.destination_sealed;
    await db.updateTable('nacha_entries').set({ destination_sealed: copied }).where('trace_number', '=', entries[0]!.trace).execute();

    const k2 = withCurrentKey(k1, 'k2', randomBytes(32));
    const result = await rotateTo(db, k2);

    expect(result.report.failed).toEqual([
      { table: 'nacha_entries', column: 'destination_sealed', rowId: entries[0]!.trace, problem: expect.stringMatching(/refused/) },
    ]);
    // 2 account numbers, 1 routing number and 2 entries rewrapped; the users' values are all under k2.
    expect(result.report).toMatchObject({ seen: 6, rewrapped: 5, current: 0 });
    await expectAllUnder(k2, 'k2', stored);
    expect(Object.fromEntries(result.usage)).toEqual({ k1: 1, k2: 5 });
    expect(result.retired).toEqual([]);
    expect([...result.ring.keys.keys()]).toEqual(['k2', 'k1']);
    const rows = await nachaRows();
    expect(rows.find((r) => r.trace_number === entries[0]!.trace)!.destination_sealed).toBe(copied);
    expect(rows.filter((r) => r.trace_number !== entries[0]!.trace).map((r) => keyIdOf(r.destination_sealed))).toEqual(['k2', 'k2']);
  });
});
