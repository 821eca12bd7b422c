/**
 * The 'order.fulfil' job: a paid order's print files are rendered and the order is submitted to
 * the print-on-demand provider, then marked submitted. Exactly once: an order that already has
 * its provider order is not submitted again, and the providers answer a repeated submission of
 * the same order (external id) with the order already made, so a process that dies between
 * the submission and the commit submits nothing new when the job runs again.
 *
 * An item whose product was withdrawn (its video deleted) after the order was placed is printed
 * from the frame the order keeps; leaving 'paid' frees it (0020_withdrawn_merch.sql).
 */
import type { Kysely } from 'kysely';
import type { Catalogue } from '../../../shared/catalogue/parse.ts';
import type { DB } from '../../platform/db/schema.ts';
import { cancelFulfilmentKey, enqueueJob, JOB_KINDS } from '../../platform/jobs/enqueue.ts';
import { transitionOrder } from './order-status.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import type { PendingObjects } from '../../platform/storage/pending-objects.ts';
import { ensurePrintFiles } from '../merch/index.ts';
import type { FulfilmentProvider } from '../../integrations/printful/index.ts';
import { keepFulfilmentOrder, orderToFulfil } from './repository.ts';

export interface FulfilDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  pending: PendingObjects;
  catalogue: Catalogue;
  provider: FulfilmentProvider;
  publicUrl: string;
  log?: (msg: string) => void;
}

export type FulfilOutcome = 'submitted' | 'already-submitted' | 'not-paid' | 'no-order';

export async function fulfilOrder(deps: FulfilDeps, orderId: string): Promise<FulfilOutcome> {
  const order = await orderToFulfil(deps.db, orderId);
  if (!order) return 'no-order';
  if (order.fulfilment_order_id) return 'already-submitted';
  // Refunded or cancelled before it reached the print shop: nothing is made.
  if (order.status !== 'paid') {
    deps.log?.(`order ${orderId} is ${order.status}, not paid: not sent to the print shop`);
    return 'not-paid';
  }

  const items = await ensurePrintFiles(deps, orderId);
  const submitted = await deps.provider.submitOrder({
    externalId: orderId,
    recipient: {
      zip: order.shipping_zip,
      country_code: order.shipping_country,
      name: order.shipping_name,
      address: order.shipping_address,
    },
    items: items.map((i) => ({
      sku: i.sku,
      podCatalogId: deps.catalogue.products.find((p) => p.sku === i.sku)?.podCatalogId ?? null,
      colour: i.colour,
      size: i.size,
      quantity: i.quantity,
      printFileUrl: `${deps.publicUrl}${mediaUrl('prints', i.print_file_key)}`,
      printFileKey: i.print_file_key,
      retailPriceCents: i.unit_price_cents + i.size_surcharge_cents,
    })),
  });

  await deps.db.transaction().execute(async (trx) => {
    const set = { fulfilment_provider: deps.provider.kind, fulfilment_order_id: submitted.providerOrderId };
    const moved = await transitionOrder(trx, orderId, 'submitted', { reason: `Sent to the print shop (${deps.provider.kind} ${submitted.providerOrderId})`, set });
    if (moved && !moved.changed) {
      // The order moved on meanwhile (the print shop's first report, or a refund): it still keeps
      // which print-shop order it has.
      await keepFulfilmentOrder(trx, orderId, set);
      deps.log?.(`order ${orderId} was ${moved.status} when its submission was recorded`);
      // Refunded while its files were being made: the print shop is asked to cancel it.
      if (moved.status === 'refunded') await enqueueJob(trx, JOB_KINDS.cancelFulfilment, { orderId }, { dedupeKey: cancelFulfilmentKey(orderId, 'after-submission') });
    }
  });
  // Sent: a frame this order kept from a withdrawn product is removed unless another order still needs it.
  await deps.pending.removeWithdrawnFrames();
  return 'submitted';
}
