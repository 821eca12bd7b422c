/**
 * Counts requests or failures per key in a sliding window (sign-in and sign-up attempts per IP
 * and per email, checkouts, captures and the like). The counts live in the database, so every
 * API process sharing it enforces one limit: a key at its limit is refused whichever process
 * it reaches. Each limiter names its own bucket; two limiters must not share one.
 */
import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { DB } from '../db/schema.ts';
import { AppError } from './errors.ts';
import { clearHits, insertHits, recentHits, sweepExpiredHits, takeHits, type HitWindow } from './repository.ts';

export class RateLimiter {
  constructor(
    private readonly db: Kysely<DB>,
    readonly bucket: string,
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  #window(key: string, now: number): HitWindow {
    return { bucket: this.bucket, key, since: new Date(now - this.windowMs) };
  }

  #hit(now: number, count: number) {
    return { at: new Date(now), expiresAt: new Date(now + this.windowMs), count };
  }

  /**
   * Lets a request through when the key has used fewer than `max` in the window, counting it
   * (`count` times: a request that asks for several things at once); answers false, counting
   * nothing, when the key is at its limit.
   */
  async take(key: string, count = 1): Promise<boolean> {
    const now = this.now();
    return takeHits(this.db, this.#window(key, now), { ...this.#hit(now, count), max: this.max });
  }

  /**
   * take(), or a refusal: 429 with `message` and Retry-After, the whole seconds until the key
   * may try again (at least 1).
   */
  async takeOrRefuse(key: string, reply: { header(name: string, value: string): unknown }, message: string, count = 1): Promise<void> {
    if (await this.take(key, count)) return;
    reply.header('retry-after', String(Math.max(1, await this.retryAfterSeconds(key))));
    throw new AppError(429, ERROR_CODES.RATE_LIMITED, message);
  }

  /** True when the key has used up its window. */
  async blocked(key: string): Promise<boolean> {
    const now = this.now();
    return (await recentHits(this.db, this.#window(key, now))).length >= this.max;
  }

  /**
   * Whole seconds until the key may try again (for a Retry-After header): 0 when it is not
   * blocked; otherwise the time until enough counted hits leave the window to let one more in
   * (the oldest one, when the key is exactly at the limit), rounded up and at least 1.
   */
  async retryAfterSeconds(key: string): Promise<number> {
    const now = this.now();
    const hits = await recentHits(this.db, this.#window(key, now));
    if (hits.length < this.max) return 0;
    const freeing = hits[hits.length - this.max]!.getTime();
    return Math.max(1, Math.ceil((freeing + this.windowMs - now) / 1000));
  }

  /** Counts a failure whatever the count already is. */
  async fail(key: string): Promise<void> {
    await insertHits(this.db, this.#window(key, this.now()), this.#hit(this.now(), 1));
  }

  async reset(key: string): Promise<void> {
    await clearHits(this.db, this.bucket, key);
  }
}

/** Removes the hits of every limiter that have left their windows; answers how many. */
export function sweepRateLimits(db: Kysely<DB>, now = new Date()): Promise<number> {
  return sweepExpiredHits(db, now);
}

/**
 * Sweeps every `everyMs` until the returned function is called (keys used once and never again
 * leave no rows behind). Every process may sweep: the delete is the same from any of them.
 */
export function sweepRateLimitsEvery(db: Kysely<DB>, everyMs: number, log: (err: unknown) => void): () => void {
  const timer = setInterval(() => void sweepRateLimits(db).catch(log), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
