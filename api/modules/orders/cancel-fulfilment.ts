/**
 * The 'order.cancel_fulfilment' job: a refunded order that already went to the print shop is
 * cancelled there while nothing has been printed, so nobody makes or ships what was paid back.
 * Once printing has started the print shop carries on (the buyer has been refunded; the parcel
 * still arrives) and the order stays refunded whatever it reports.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { CancelOutcome, FulfilmentProvider } from '../../integrations/printful/index.ts';
import { orderFulfilment } from './repository.ts';

export interface CancelDeps {
  db: Kysely<DB>;
  /** The print shops by kind: an order is cancelled with the one it was sent to. */
  providers: Partial<Record<FulfilmentProvider['kind'], FulfilmentProvider>>;
  log?: (msg: string) => void;
}

export type CancelFulfilmentOutcome = CancelOutcome | 'not-refunded' | 'not-submitted' | 'no-order';

export async function cancelFulfilment(deps: CancelDeps, orderId: string): Promise<CancelFulfilmentOutcome> {
  const order = await orderFulfilment(deps.db, orderId);
  if (!order) return 'no-order';
  if (order.status !== 'refunded') return 'not-refunded';
  // Never sent: the fulfil job sends nothing for a refunded order.
  if (!order.fulfilment_order_id || !order.fulfilment_provider) return 'not-submitted';
  const provider = deps.providers[order.fulfilment_provider];
  if (!provider) throw new Error(`No ${order.fulfilment_provider} print shop is configured to cancel order ${orderId} with.`);
  const outcome = await provider.cancelOrder(orderId);
  deps.log?.(`refunded order ${orderId}: print-shop order ${order.fulfilment_order_id} ${outcome === 'cancelled' ? 'cancelled' : outcome === 'too-late' ? 'already in production, not cancelled' : 'not found'}`);
  return outcome;
}
