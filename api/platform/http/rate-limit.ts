/**
 * Counts failures per key in a sliding window (login attempts per IP and per email). Kept in
 * this process's memory: with several API processes each counts on its own, so the effective
 * limit is the limit times the number of processes.
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
