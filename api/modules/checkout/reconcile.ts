/**
 * Payment reconciliation: the payment provider's succeeded checkout payments of the last days
 * held against the orders, so that no payment is left without a paid or refunded order, even
 * when its event never arrived or arrived where it could not be applied. A payment whose order
 * is still pending or was cancelled gets the completed event applied as if it had just arrived
 * (through the same rules: the order is paid, or revived, or the payment refunded); a payment
 * for no order of this shop is refunded. Each run is recorded for the admin portal and logged.
 * Runs once a day as the job `payments.reconcile`, also at any time from the admin portal.
 */
import type { Kysely } from 'kysely';
import type { PaymentReconciliation } from '../../../shared/schemas/admin-orders.ts';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';
import { enqueueJob, JOB_KINDS } from '../../platform/jobs/enqueue.ts';
import type { PaymentEvent, PaymentProvider, SucceededPayment } from '../../integrations/stripe/index.ts';
import { queuePaymentRefund } from '../orders/index.ts';
import { applyPaymentEvent, type PaymentEventDeps } from './payment-events.ts';
import { insertReconciliation, latestReconciliations, orderStateBySession, type ReconciliationRun } from './repository.ts';

/** How far back each run looks: a payment whose event was lost is found on each of these days. */
export const RECONCILE_DAYS = 3;

/** Where a payment's order may stand: it has what the payment was for, or the money went back. */
const SETTLED: ReadonlySet<OrderStatus> = new Set(['paid', 'submitted', 'in_production', 'shipped', 'delivered', 'refunded']);

export interface ReconcileDeps extends PaymentEventDeps {
  payments: Pick<PaymentProvider, 'kind' | 'succeededPayments'>;
}

/**
 * The completed event the provider sent (or would have) for this payment, under an id of the
 * reconciliation's own: the fields the payment rules read, not a whole Stripe event.
 */
function completedEvent(p: SucceededPayment, orderId: string): PaymentEvent {
  return {
    id: `reconcile:${p.sessionId}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: p.sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_total: p.amountCents,
        currency: p.currency,
        payment_intent: p.paymentIntentId,
        metadata: { order_id: orderId },
      },
    },
  } as unknown as PaymentEvent;
}

export async function reconcilePayments(deps: ReconcileDeps, now: Date): Promise<ReconciliationRun> {
  const since = new Date(now.getTime() - RECONCILE_DAYS * 24 * 3600_000);
  const payments = await deps.payments.succeededPayments(since);
  const run: ReconciliationRun = { since, provider: deps.payments.kind, checked: payments.length, inOrder: 0, repaired: [], refunded: [] };
  for (const p of payments) {
    const order = await orderStateBySession(deps.db, p.sessionId);
    if (p.refunded || (order && SETTLED.has(order.status))) {
      run.inOrder++;
      continue;
    }
    if (!order || (p.orderId && p.orderId !== order.id)) {
      await queuePaymentRefund(deps.db, null, p.paymentIntentId, `payment ${p.sessionId} is for no order of this shop`);
      run.refunded.push({ session_id: p.sessionId, order_id: null, why: 'no order' });
      continue;
    }
    const outcome = await applyPaymentEvent(deps, completedEvent(p, order.id));
    const effect = outcome.duplicate ? 'none' : outcome.effect;
    if (effect === 'paid') run.repaired.push({ session_id: p.sessionId, order_id: order.id, effect: `${order.status} -> paid` });
    else run.refunded.push({ session_id: p.sessionId, order_id: order.id, why: `the order (${order.status}) could not take the payment` });
  }
  await insertReconciliation(deps.db, run);
  const level = run.repaired.length + run.refunded.length > 0 ? 'warn' : 'info';
  deps.log[level]({ reconciliation: run }, `payment reconciliation: ${run.checked} payments, ${run.inOrder} in order, ${run.repaired.length} repaired, ${run.refunded.length} refunded`);
  return run;
}

/** A day's run: `payments.reconcile:YYYY-MM-DD`, once per day however many processes queue it. */
export function reconcileJobKey(day: Date): string {
  return `payments.reconcile:${day.toISOString().slice(0, 10)}`;
}

/** The next run at 03:00 UTC (a quiet hour) after `now`. */
export function nextReconcileAt(now: Date): Date {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 3));
  return at.getTime() > now.getTime() ? at : new Date(at.getTime() + 24 * 3600_000);
}


/** Queues the run due at `at` (once per day: the jobs' dedupe key). */
export function scheduleReconcile(db: Kysely<DB>, at: Date): Promise<boolean> {
  return enqueueJob(db, JOB_KINDS.reconcilePayments, {}, { dedupeKey: reconcileJobKey(at), runAfter: at });
}

export function runView(r: ReconciliationRun, ranAt: Date): PaymentReconciliation {
  return {
    ran_at: ranAt.toISOString(),
    since: r.since.toISOString(),
    provider: r.provider,
    checked: r.checked,
    in_order: r.inOrder,
    repaired: r.repaired,
    refunded: r.refunded,
  };
}

/** The latest `limit` runs, newest first, as the admin portal shows them. */
export async function recentReconciliations(db: Kysely<DB>, limit: number): Promise<PaymentReconciliation[]> {
  const rows = await latestReconciliations(db, limit);
  return rows.map((r) => runView({ since: r.since, provider: r.provider, checked: r.checked, inOrder: r.in_order, repaired: r.repaired, refunded: r.refunded }, r.ran_at));
}
