/**
 * The rate limiters' sliding windows, counted in the database: the arithmetic of a window, and
 * one limit shared by every limiter object (every process) on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { freshDatabase, type TestDatabase } from '../../test/harness.ts';
import { RateLimiter, sweepRateLimits } from './rate-limit.ts';

let tdb: TestDatabase;
let db: Kysely<DB>;
let buckets = 0;

beforeAll(async () => {
  tdb = await freshDatabase();
  db = tdb.database.db;
});
afterAll(async () => tdb?.drop());

function clocked(max: number, windowMs: number) {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const bucket = `test-${++buckets}`;
  const limiter = new RateLimiter(db, bucket, max, windowMs, () => now);
  return { limiter, bucket, advance: (ms: number) => (now += ms), now: () => now };
}

describe('RateLimiter', () => {
  it('blocks a key at its limit until the oldest failure leaves the window; others are not affected', async () => {
    const { limiter, advance } = clocked(3, 60_000);
    for (let i = 0; i < 3; i++) {
      expect(await limiter.blocked('a')).toBe(false);
      await limiter.fail('a');
      advance(10_000);
    }
    expect(await limiter.blocked('a')).toBe(true);
    expect(await limiter.blocked('b')).toBe(false);
    advance(29_999);
    expect(await limiter.blocked('a')).toBe(true);
    advance(1);
    expect(await limiter.blocked('a')).toBe(false);
  });

  it('says how many whole seconds to wait: 0 when not blocked, rounded up, at least 1', async () => {
    const { limiter, advance } = clocked(2, 60_000);
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
    await limiter.fail('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
    advance(15_500);
    await limiter.fail('a');
    // The oldest of the two leaves the window 60 s after it came: 44.5 s from now, said as 45.
    expect(await limiter.retryAfterSeconds('a')).toBe(45);
    advance(44_000);
    expect(await limiter.retryAfterSeconds('a')).toBe(1);
    advance(499);
    expect(await limiter.retryAfterSeconds('a')).toBe(1);
    advance(1);
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
    expect(await limiter.blocked('a')).toBe(false);
    expect(await limiter.retryAfterSeconds('b')).toBe(0);
  });

  it('with more failures than the limit (requests that raced past it), waits until enough have left', async () => {
    const { limiter, advance } = clocked(2, 60_000);
    for (let i = 0; i < 4; i++) {
      await limiter.fail('a');
      advance(10_000);
    }
    // Failures at 0, 10, 20 and 30 s; now 40 s. One more is let in once only one is left in the window, at 80 s.
    expect(await limiter.retryAfterSeconds('a')).toBe(40);
  });

  it('forgets a key on reset', async () => {
    const { limiter } = clocked(1, 60_000);
    await limiter.fail('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(60);
    await limiter.reset('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('take lets a key through up to its limit, counting each request, and counts nothing it refuses', async () => {
    const { limiter, advance } = clocked(3, 60_000);
    expect(await limiter.take('a', 2)).toBe(true);
    expect(await limiter.take('a')).toBe(true);
    expect(await limiter.take('a')).toBe(false);
    expect(await limiter.take('b')).toBe(true);
    advance(60_000);
    // The three hits left the window together; the refusal added none.
    expect(await limiter.take('a', 3)).toBe(true);
    expect(await limiter.take('a')).toBe(false);
    expect(await limiter.retryAfterSeconds('a')).toBe(60);
  });

  it('one limit across every limiter object on the database, under concurrent requests', async () => {
    const { bucket } = clocked(1, 1);
    // Two objects for one bucket: two processes' limiters. 40 requests race on both.
    const a = new RateLimiter(db, bucket, 10, 60_000);
    const b = new RateLimiter(db, bucket, 10, 60_000);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take('shared')));
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(await a.blocked('shared')).toBe(true);
    expect(await b.retryAfterSeconds('shared')).toBeGreaterThan(0);
    await b.reset('shared');
    expect(await a.take('shared')).toBe(true);
  });

  it('limiters with different buckets do not share counts', async () => {
    const one = clocked(1, 60_000);
    const two = new RateLimiter(db, `${one.bucket}-other`, 1, 60_000, one.now);
    expect(await one.limiter.take('k')).toBe(true);
    expect(await two.take('k')).toBe(true);
    expect(await one.limiter.take('k')).toBe(false);
  });

  it('the sweep removes hits past their window and keeps the rest', async () => {
    const { limiter, bucket, advance, now } = clocked(5, 60_000);
    await limiter.fail('old');
    advance(30_000);
    await limiter.fail('new');
    advance(31_000);
    await sweepRateLimits(db, new Date(now()));
    const left = await db.selectFrom('rate_limit_hits').select('key').where('bucket', '=', bucket).execute();
    expect(left.map((r) => r.key)).toEqual(['new']);
  });
});
