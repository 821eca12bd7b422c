/**
 * Giving a payment back in full: one the app took but cannot turn into a fulfilled order (an
 * amount other than the order's, an order the print shop cancelled after it was paid). Queued in
 * the transaction that finds it so, once per payment; the job asks the payment provider, whose
 * charge.refunded event then moves the order to refunded and reverses its earnings.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { enqueueJob, JOB_KINDS, refundPaymentKey } from '../../platform/jobs/enqueue.ts';
import { PermanentJobError } from '../../platform/jobs/runner.ts';
import type { PaymentProvider } from '../../integrations/stripe/index.ts';

export async function queuePaymentRefund(trx: Kysely<DB> | Transaction<DB>, orderId: string | null, paymentIntentId: string | null, why: string): Promise<void> {
  if (!paymentIntentId) return;
  await enqueueJob(trx, JOB_KINDS.refundPayment, { orderId, paymentIntentId, why }, { dedupeKey: refundPaymentKey(paymentIntentId) });
}

/** The job: the provider refunds the payment (a second refund of the same payment does nothing there). */
export async function refundPaymentJob(payments: Pick<PaymentProvider, 'refund'>, payload: Record<string, unknown>, log: (msg: string) => void): Promise<void> {
  const { paymentIntentId, orderId, why } = payload;
  if (typeof paymentIntentId !== 'string') throw new PermanentJobError('The job names no payment.');
  await payments.refund(paymentIntentId);
  log(`refunded payment ${paymentIntentId}${typeof orderId === 'string' ? ` of order ${orderId}` : ''}: ${String(why)}`);
}
