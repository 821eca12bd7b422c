/**
 * A fixed number of slots for work that holds a lot of memory at once (a decoded image, a large
 * request body): callers past the limit wait their turn in order, so the memory in use stays
 * bounded whatever the number of requests.
 */

/** Thrown when a caller has waited longer than it was willing to for a slot. */
export class SlotWaitTimeout extends Error {
  override name = 'SlotWaitTimeout';
}

export class Slots {
  #free: number;
  readonly #waiting: Array<{ grant: () => void }> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('at least one slot is needed');
    this.#free = size;
  }

  /** Slots in use now. */
  get running(): number {
    return this.size - this.#free;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Takes a slot, waiting for one when none is free (at most `waitMs`, then SlotWaitTimeout),
   * and answers the function that gives it back; calling that more than once gives it back once.
   */
  async acquire(waitMs = Number.POSITIVE_INFINITY): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else {
      await new Promise<void>((resolve, reject) => {
        const entry = { grant: () => resolve() };
        this.#waiting.push(entry);
        if (Number.isFinite(waitMs)) {
          const timer = setTimeout(() => {
            const at = this.#waiting.indexOf(entry);
            if (at >= 0) {
              this.#waiting.splice(at, 1);
              reject(new SlotWaitTimeout(`no slot free within ${waitMs} ms`));
            }
          }, waitMs);
          entry.grant = () => {
            clearTimeout(timer);
            resolve();
          };
        }
      });
    }
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      // The slot passes straight to the next in line, so a newcomer cannot overtake the queue.
      const next = this.#waiting.shift();
      if (next) next.grant();
      else this.#free++;
    };
  }

  /** Runs the task once a slot is free, and frees the slot when it settles, whether it succeeds or throws. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}
