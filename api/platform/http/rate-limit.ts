/**
 * Counts failures per key in a sliding window (sign-in and sign-up attempts per IP and per
 * email, checkouts, captures and the like). Kept in this process's memory: with several API
 * processes each counts on its own, so the effective limit is the limit times the number of
 * processes.
 */
export class FailureLimiter {
  readonly #hits = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  #recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const hits = (this.#hits.get(key) ?? []).filter((t) => t > since);
    if (hits.length === 0) this.#hits.delete(key);
    else this.#hits.set(key, hits);
    return hits;
  }

  /** True when the key has used up its failures in the window. */
  blocked(key: string): boolean {
    return this.#recent(key).length >= this.max;
  }

  /**
   * Whole seconds until the key may try again (for a Retry-After header): 0 when it is not
   * blocked; otherwise the time until enough counted failures leave the window to let one more
   * in (the oldest one, when the key is exactly at the limit), rounded up and at least 1.
   */
  retryAfterSeconds(key: string): number {
    const hits = this.#recent(key);
    if (hits.length < this.max) return 0;
    const freeing = hits[hits.length - this.max]!;
    return Math.max(1, Math.ceil((freeing + this.windowMs - this.now()) / 1000));
  }

  fail(key: string): void {
    const hits = this.#recent(key);
    hits.push(this.now());
    this.#hits.set(key, hits);
    if (this.#hits.size > 100_000) this.#hits.delete(this.#hits.keys().next().value as string);
  }

  reset(key: string): void {
    this.#hits.delete(key);
  }
}
