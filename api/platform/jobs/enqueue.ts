/**
 * Background jobs live in the jobs table: enqueueing is an insert in the caller's
 * transaction, so a job exists exactly when the change that asked for it committed. A dedupe
 * key makes a second request for the same job a no-op. The runner is in runner.ts.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { insertJob, lockJobByDedupeKey, requeueFailed } from './repository.ts';

export const JOB_KINDS = {
  /** Render the order's print files and submit it to the print-on-demand provider. */
  fulfilOrder: 'order.fulfil',
  /** Ask the print shop to cancel a refunded order it has not started on. */
  cancelFulfilment: 'order.cancel_fulfilment',
  /** The monthly payout run of one period (modules/payouts), due on the period's 1st at 00:00 UTC. */
  payoutsRun: 'payouts.run',
  /** Give a payment back in full: one the app took but cannot turn into a fulfilled order. */
  refundPayment: 'payment.refund',
  /** The day's payment reconciliation (modules/checkout/reconcile.ts), due at 03:00 UTC. */
  reconcilePayments: 'payments.reconcile',
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
  [JOB_KINDS.refundPayment]: 12,
  [JOB_KINDS.reconcilePayments]: 12,
};

/** An order's fulfil job has the dedupe key `fulfil:<order id>`: one per order. */
export const FULFIL_ORDER_KEY_PREFIX = 'fulfil:';

export function fulfilOrderKey(orderId: string): string {
  return `${FULFIL_ORDER_KEY_PREFIX}${orderId}`;
}

/** The dedupe key of a refunded order's cancellation; `after` tells a second request apart. */
export function cancelFulfilmentKey(orderId: string, after = ''): string {
  return `cancel-fulfilment:${orderId}${after ? `:${after}` : ''}`;
}

/** A payment's refund has the dedupe key `refund:<payment intent>`: one per payment. */
export function refundPaymentKey(paymentIntentId: string): string {
  return `refund:${paymentIntentId}`;
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

/** The job with this dedupe key, its row locked until the transaction ends; undefined when there is none. */
export function lockJobByKey(trx: Transaction<DB>, dedupeKey: string) {
  return lockJobByDedupeKey(trx, dedupeKey);
}

/**
 * Queues a failed job again as if new: attempts start over and it is due now. Answers false when
 * the job is not failed (it was retried meanwhile, or never failed).
 */
export function requeueFailedJob(db: Kysely<DB> | Transaction<DB>, jobId: string): Promise<boolean> {
  return requeueFailed(db, jobId);
}
