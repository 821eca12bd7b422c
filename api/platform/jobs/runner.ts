/**
 * Runs the jobs table's due jobs. A job is claimed with one UPDATE (SKIP LOCKED, so processes
 * sharing the database never take the same job) and holds a lease while its handler runs; the
 * lease is renewed while the handler works, so only a job whose process stopped (killed,
 * crashed, restarted) sees its lease expire, and then another runner takes it again. A failed
 * attempt is retried after an exponential backoff until max_attempts; then the job is failed.
 * Handlers must be safe to run again: a process may die after the work and before 'done'.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import {
  claimJob,
  expireOtherLeases,
  failAbandonedLastAttempts,
  markJobDone,
  recordJobFailure,
  renewLease,
  type JobRow,
} from './repository.ts';

export type { JobRow } from './repository.ts';

export type JobHandler = (payload: Record<string, unknown>, job: JobRow) => Promise<void>;

/** Thrown by a handler when trying again cannot help: the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface JobRunnerOptions {
  /** Written to locked_by: the process holding the job. */
  instanceId: string;
  /** How long a claimed job stays claimed without a renewal. */
  leaseMs?: number;
  /** The first retry waits 2 x base, the next 4 x base, and so on up to the cap. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_BACKOFF_BASE_MS = 1000;
export const DEFAULT_BACKOFF_CAP_MS = 10 * 60_000;

/** The wait before the next attempt, after `attempts` attempts: base x 2^attempts, capped. */
export function backoffMs(attempts: number, baseMs = DEFAULT_BACKOFF_BASE_MS, capMs = DEFAULT_BACKOFF_CAP_MS): number {
  return Math.min(capMs, baseMs * 2 ** Math.min(attempts, 30));
}

export class JobRunner {
  readonly instanceId: string;
  readonly leaseMs: number;
  backoffBaseMs: number;
  readonly backoffCapMs: number;
  readonly #handlers = new Map<string, JobHandler>();
  readonly #log: (msg: string, err?: unknown) => void;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  #stopping = false;

  constructor(
    private readonly db: Kysely<DB>,
    options: JobRunnerOptions,
  ) {
    this.instanceId = options.instanceId;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.backoffBaseMs = options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS;
    this.backoffCapMs = options.backoffCapMs ?? DEFAULT_BACKOFF_CAP_MS;
    this.#log = options.log ?? (() => {});
  }

  register(kind: string, handler: JobHandler): void {
    if (this.#handlers.has(kind)) throw new Error(`A handler for ${kind} is already registered`);
    this.#handlers.set(kind, handler);
  }

  /**
   * Makes every job another process was running due at once. Only for a database no other
   * process can use (the embedded one): those processes are certainly gone.
   */
  async releaseOrphans(): Promise<number> {
    return expireOtherLeases(this.db, this.instanceId);
  }

  /**
   * A job whose process stopped during its last attempt is not tried again: a job that kills
   * its process must not do so forever.
   */
  async #failAbandonedLastAttempts(): Promise<void> {
    const failed = await failAbandonedLastAttempts(this.db);
    for (const j of failed) this.#log(`job ${j.kind} ${j.id} failed: the process running its last attempt stopped`);
  }

  /** Claims one due job of a kind this runner handles, or answers null. */
  async claim(): Promise<JobRow | null> {
    const kinds = [...this.#handlers.keys()];
    if (kinds.length === 0) return null;
    return claimJob(this.db, this.instanceId, kinds, this.leaseMs);
  }

  /**
   * Runs every job due now and answers how many ran: one at a time, or `concurrency` at once.
   * A job retried within the pass ends it (for the worker that ran it).
   */
  runDue(concurrency = 1): Promise<number> {
    this.#running ??= this.#runDue(Math.max(1, Math.floor(concurrency))).finally(() => (this.#running = null));
    return this.#running;
  }

  async #runDue(concurrency: number): Promise<number> {
    await this.#failAbandonedLastAttempts();
    const seen = new Set<string>();
    let ran = 0;
    const worker = async () => {
      while (!this.#stopping) {
        const job = await this.claim();
        if (!job) return;
        await this.#run(job);
        ran++;
        if (seen.has(job.id)) return;
        seen.add(job.id);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return ran;
  }

  async #run(job: JobRow): Promise<void> {
    const handler = this.#handlers.get(job.kind)!;
    // Renews the lease while the handler works, so a long job is not taken by another runner.
    const renew = setInterval(() => {
      void renewLease(this.db, job.id, this.instanceId, this.leaseMs).catch((err) => this.#log(`could not renew the lease of job ${job.id}`, err));
    }, Math.max(10, Math.floor(this.leaseMs / 3)));
    try {
      await handler(job.payload, job);
      clearInterval(renew);
      await markJobDone(this.db, job.id, this.instanceId);
    } catch (err) {
      clearInterval(renew);
      const message = String((err as Error)?.message ?? err).slice(0, 1000);
      const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
      if (final) this.#log(`job ${job.kind} ${job.id} failed after ${job.attempts} attempt(s): ${message}`, err);
      const retryAfterMs = backoffMs(job.attempts, this.backoffBaseMs, this.backoffCapMs);
      await recordJobFailure(this.db, job.id, this.instanceId, { final, message, retryAfterMs }).catch((e) =>
        this.#log(`could not record the failure of job ${job.id}`, e),
      );
    }
  }

  /** Polls for due jobs every intervalMs until stop(). */
  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#stopping = false;
    const tick = () => {
      void this.runDue()
        .catch((err) => this.#log('the job runner failed', err))
        .finally(() => {
          if (!this.#stopping) {
            this.#timer = setTimeout(tick, intervalMs);
            this.#timer.unref();
          }
        });
    };
    this.#timer = setTimeout(tick, intervalMs);
    this.#timer.unref();
  }

  /** Stops polling and waits for the job in hand to finish. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => 0);
  }
}
