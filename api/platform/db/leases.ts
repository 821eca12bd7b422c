/**
 * Leases: a named key that one process at a time holds, across every API process on the
 * database, for work that must not run twice at once (an upload being turned into a video, two
 * requests writing one file). A lease is held until it is released or until it expires: the holder
 * renews it every third of its time to live while held, so a lease outlives its holder by at most
 * that time when the process dies, and is then simply taken by the next who asks. Expiry is by the
 * database's clock, one clock for every process (never the app's, which a test may move).
 * With the embedded database this is the one process, and the same code serves it.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { dropLease, forgetExpiredLeases, leaseHeld, leaseHeldUnder, renewLease, takeLease } from './repository.ts';
import type { DB } from './schema.ts';

export interface Lease {
  readonly key: string;
  /**
   * Lets the lease go, unless it was lost meanwhile (expired and taken by another, whose it then
   * stays). Never fails: a lease that cannot be deleted expires by itself.
   */
  release(): Promise<void>;
}

export interface LeaseWait {
  /** How long to keep asking before giving up. */
  waitMs: number;
  /** Gives up at once when it fires (the request that wanted the lease went away). */
  signal?: AbortSignal;
  /** Called each time the lease is found held, before the pause that follows. */
  onHeld?: () => void;
}

/** Pauses between asks double from the first to the longest, so a short hold is noticed at once and a long one costs little. */
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 250;

export class Leases {
  constructor(
    private readonly db: Kysely<DB>,
    /** Who holds the leases taken here: this process (its server_instances id). */
    readonly holder: string,
    private readonly log: (msg: string, err: unknown) => void = () => {},
  ) {}

  /** The lease, or null while another holds it (taken and not expired). */
  async acquire(key: string, ttlMs: number): Promise<Lease | null> {
    const token = randomUUID();
    if (!(await takeLease(this.db, { key, holder: this.holder, token, ttlMs }))) return null;
    const renewal = setInterval(() => {
      renewLease(this.db, key, token, ttlMs).then(
        (held) => {
          if (!held) clearInterval(renewal);
        },
        (err) => this.log(`could not renew the lease ${key}`, err),
      );
    }, ttlMs / 3);
    renewal.unref();
    let released = false;
    return {
      key,
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        await dropLease(this.db, key, token).catch((err) => this.log(`could not release the lease ${key}; it expires by itself`, err));
      },
    };
  }

  /** The lease once it is free, asking again after growing pauses; null when the wait ends first. */
  async acquireWithin(key: string, ttlMs: number, wait: LeaseWait): Promise<Lease | null> {
    const giveUpAt = Date.now() + wait.waitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, LONGEST_PAUSE_MS)) {
      if (wait.signal?.aborted) return null;
      const lease = await this.acquire(key, ttlMs);
      if (lease) return lease;
      wait.onHeld?.();
      const left = giveUpAt - Date.now();
      if (left <= 0) return null;
      try {
        await sleep(Math.min(pause, left), undefined, { signal: wait.signal });
      } catch {
        return null;
      }
    }
  }

  /** Whether someone holds the lease now. */
  isHeld(key: string): Promise<boolean> {
    return leaseHeld(this.db, key);
  }

  /** Whether someone holds a lease whose key starts with `prefix` now. */
  isAnyHeld(prefix: string): Promise<boolean> {
    return leaseHeldUnder(this.db, prefix);
  }

  /**
   * Deletes every expired lease (what stopped and dead processes left); answers how many. An
   * expired lease is as free as a missing one, so any process may do this at any time.
   */
  forgetExpired(): Promise<number> {
    return forgetExpiredLeases(this.db);
  }
}
