/**
 * Background jobs live in the jobs table: enqueueing is an insert in the caller's
 * transaction, so a job exists exactly when the change that asked for it committed. A dedupe
 * key makes a second request for the same job a no-op. The runner is in runner.ts.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { insertJob } from './repository.ts';

export const JOB_KINDS = {
  /** Render the order's print files and submit it to the print-on-demand provider. */
  fulfilOrder: 'order.fulfil',
  /** Ask the print shop to cancel a refunded order it has not started on. */
  cancelFulfilment: 'order.cancel_fulfilment',
  /** The monthly payout run of one period (modules/payouts), due on the period's 1st at 00:00 UTC. */
  payoutsRun: 'payouts.run',
} as const;
export type JobKind = (typeof JOB_KINDS)[keyof typeof JOB_KINDS];

/**
 * Attempts a kind gets unless the caller says otherwise. With the runner's backoff (2 s doubling,
 * at most 10 minutes apart) 12 attempts span about 40 minutes: a print shop that is down for a
 * while delays an order, it does not lose it.
 */
const MAX_ATTEMPTS: Partial<Record<JobKind, number>> = {
  [JOB_KINDS.fulfilOrder]: 12,
  [JOB_KINDS.cancelFulfilment]: 12,
  [JOB_KINDS.payoutsRun]: 12,
};

/** The dedupe key of a refunded order's cancellation; `after` tells a second request apart. */
export function cancelFulfilmentKey(orderId: string, after = ''): string {
  return `cancel-fulfilment:${orderId}${after ? `:${after}` : ''}`;
}

export interface EnqueueOptions {
  dedupeKey?: string;
  runAfter?: Date;
  maxAttempts?: number;
}

/** Queues a job; answers false when a job with the same dedupe key already exists. */
export async function enqueueJob(
  db: Kysely<DB> | Transaction<DB>,
  kind: JobKind,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<boolean> {
  return insertJob(db, {
    kind,
    payload,
    dedupeKey: options.dedupeKey ?? null,
    runAfter: options.runAfter ?? new Date(),
    maxAttempts: options.maxAttempts ?? MAX_ATTEMPTS[kind],
  });
}
