/**
 * Key rotation against the test database: values sealed under k1 are all under k2 afterwards and
 * open to the same numbers; a run cut short is finished by the next; a value that cannot be opened
 * is reported and keeps its key in the ring.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/harness.ts';
import type { DB } from '../db/schema.ts';
import { loadOrCreateKeyFile, payoutKeyFile, readKeyFile } from './key-file.ts';
import { countSealedValuesByKey, SEALED_USER_COLUMNS } from './repository.ts';
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
  return db.selectFrom('users').select(['id', ...SEALED_USER_COLUMNS]).where('ach_account_number_encrypted', 'is not', null).orderBy('id').execute();
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
    expect(result.report.failed).toEqual([{ userId: stored[0]!.id, column: 'ach_account_number_encrypted', problem: expect.stringMatching(/refused/) }]);
    expect(result.report.rewrapped).toBe(result.report.seen - 1);
    expect(Object.fromEntries(result.usage)).toEqual({ k1: 1, k2: result.report.seen - 1 });
    expect(result.retired).toEqual([]);
    expect([...result.ring.keys.keys()]).toEqual(['k2', 'k1']);
    const row = (await sealedRows()).find((r) => r.id === stored[0]!.id)!;
    expect(row.ach_account_number_encrypted).toBe(copied);
  });
});
