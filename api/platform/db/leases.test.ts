/**
 * Leases held across processes: two Leases objects with different holders stand for two API
 * processes on one database. Taken, refused while held, released; renewed while held; taken over
 * once a dead holder's lease expires; and a holder that lost its lease cannot renew or release
 * the next holder's.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../test/harness.ts';
import { Leases } from './leases.ts';

let tdb: TestDatabase;
let a: Leases;
let b: Leases;
let keys = 0;

beforeAll(async () => {
  tdb = await freshDatabase();
  a = new Leases(tdb.database.db, 'process-a');
  b = new Leases(tdb.database.db, 'process-b');
});
afterAll(async () => tdb?.drop());

const db = () => tdb.database.db;
const newKey = () => `test:${++keys}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the database holds for the key: who, and until when. */
const row = (key: string) => db().selectFrom('leases').select(['holder', 'expires_at']).where('key', '=', key).executeTakeFirst();

/** As if its holder had died a while ago: the lease expired by the database's clock, nobody renewing it. */
async function expire(key: string) {
  await db().updateTable('leases').set({ expires_at: sql<Date>`now() - interval '1 second'` }).where('key', '=', key).execute();
}

describe('leases', () => {
  it('are held by one holder until released, then free for the next', async () => {
    const key = newKey();
    const held = await a.acquire(key, 60_000);
    expect(held?.key).toBe(key);
    expect((await row(key))?.holder).toBe('process-a');
    expect(await b.acquire(key, 60_000)).toBeNull();
    // Not re-entrant: a second taking by the same process is refused too.
    expect(await a.acquire(key, 60_000)).toBeNull();
    expect(await b.isHeld(key)).toBe(true);
    expect(await b.isAnyHeld('test:')).toBe(true);
    // Other keys are not affected.
    const other = await b.acquire(newKey(), 60_000);
    expect(other).not.toBeNull();
    await other!.release();

    await held!.release();
    expect(await row(key)).toBeUndefined();
    expect(await b.isHeld(key)).toBe(false);
    const next = await b.acquire(key, 60_000);
    expect((await row(key))?.holder).toBe('process-b');
    await next!.release();
  });

  it("are taken over once a dead holder's lease expires, and the lost holder can neither renew nor release the new one", async () => {
    const key = newKey();
    const lost = (await a.acquire(key, 60_000))!;
    await expire(key);
    expect(await a.isHeld(key)).toBe(false);
    const taken = await b.acquire(key, 60_000);
    expect(taken).not.toBeNull();
    const until = (await row(key))!.expires_at;
    expect((await row(key))?.holder).toBe('process-b');

    // The first holder comes back and lets go of what it thinks is its own: the new holder keeps it.
    await lost.release();
    expect(await row(key)).toEqual({ holder: 'process-b', expires_at: until });
    expect(await a.acquire(key, 60_000)).toBeNull();
    await taken!.release();
    expect(await row(key)).toBeUndefined();
  });

  it('are renewed while held, so they outlive their time to live', async () => {
    const key = newKey();
    const held = (await a.acquire(key, 300))!;
    const first = (await row(key))!.expires_at.getTime();
    await sleep(1000);
    expect(await b.acquire(key, 300)).toBeNull();
    expect(await b.isHeld(key)).toBe(true);
    expect((await row(key))!.expires_at.getTime()).toBeGreaterThan(first);
    await held.release();
    expect(await row(key)).toBeUndefined();
  });

  it('wait for a lease until it is released, and give up when the wait ends or its signal fires', async () => {
    const key = newKey();
    const held = (await a.acquire(key, 60_000))!;
    let asked = 0;
    const waiting = b.acquireWithin(key, 60_000, { waitMs: 10_000, onHeld: () => asked++ });
    await sleep(200);
    await held.release();
    const got = await waiting;
    expect(got).not.toBeNull();
    expect(asked).toBeGreaterThan(1);
    expect((await row(key))?.holder).toBe('process-b');

    const started = Date.now();
    expect(await a.acquireWithin(key, 60_000, { waitMs: 300 })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    expect(await a.acquireWithin(key, 60_000, { waitMs: 60_000, signal: stop.signal })).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
    await got!.release();
  });

  it('forget only the expired ones', async () => {
    const live = (await a.acquire(newKey(), 60_000))!;
    const dead = newKey();
    await b.acquire(dead, 60_000);
    await expire(dead);
    expect(await a.forgetExpired()).toBeGreaterThanOrEqual(1);
    expect(await row(dead)).toBeUndefined();
    expect(await row(live.key)).toBeDefined();
    await live.release();
  });
});
