/**
 * Creator earnings: when an order is paid, each item made from a creator's video credits that
 * creator with a 'sale' record; when the payment is refunded, each sale record gets its
 * 'reversal' (the same amounts, negated). UNIQUE (order_item_id, kind) makes both at most
 * once per item, whatever repeats. Both run inside the caller's transaction, together with
 * the order's status change.
 *
 * Rounding: the margin of a line is (unit price - base cost) x quantity, in whole cents (size
 * surcharges pass through to the print provider and shipping is a cost, so neither carries
 * margin). The creator's share is CREATOR_SHARE_PERCENT (shared/constants.ts) of the margin rounded half-up to the cent
 * (splitMargin in shared/money.ts); the house keeps margin - creator share. Both are integers
 * and always add up to the margin.
 */
import type { Transaction } from 'kysely';
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import { splitMargin, type Cents } from '../../../shared/money.ts';
import type { DB } from '../../platform/db/schema.ts';
import { addToCreatorTotal, creditableItems, insertEarning, orderSales } from './repository.ts';

export const SALE_SOURCE = 'Product Sale';

export interface LineForEarning {
  unit_price_cents: number;
  base_cost_cents: number;
  quantity: number;
}

export interface LineEarning {
  marginCents: Cents;
  creatorShareCents: Cents;
  houseShareCents: Cents;
}

/** The margin of one order line and its split; surcharges are not part of unit_price_cents. */
export function lineEarning(line: LineForEarning): LineEarning {
  const marginCents = Math.max(0, line.unit_price_cents - line.base_cost_cents) * line.quantity;
  const { creator, house } = splitMargin(marginCents, CREATOR_SHARE_PERCENT);
  return { marginCents, creatorShareCents: creator, houseShareCents: house };
}

/**
 * Keeps users.total_earnings_cents equal to the sum of the creator's earning records and
 * pending_payout_cents to the sum of those no payout holds (the payout run takes its amount off
 * when it makes a payout); a reversal of a sale already paid out takes pending below zero.
 * Creators are updated in id order, so two orders sharing creators never lock them crosswise.
 */
async function addToCreatorTotals(trx: Transaction<DB>, deltas: Map<string, Cents>): Promise<void> {
  for (const userId of [...deltas.keys()].sort()) {
    const delta = deltas.get(userId)!;
    if (delta === 0) continue;
    await addToCreatorTotal(trx, userId, delta);
  }
}

function addDelta(deltas: Map<string, Cents>, userId: string, cents: Cents): void {
  deltas.set(userId, (deltas.get(userId) ?? 0) + cents);
}

/** Credits the creators of a paid order's items; answers how many sale records were written. */
export async function creditOrderEarnings(trx: Transaction<DB>, orderId: string): Promise<number> {
  const items = await creditableItems(trx, orderId);
  let written = 0;
  const deltas = new Map<string, Cents>();
  for (const item of items) {
    const split = lineEarning(item);
    const inserted = await insertEarning(trx, {
      user_id: item.creator_id,
      order_item_id: item.id,
      kind: 'sale',
      amount_cents: item.line_total_cents,
      margin_cents: split.marginCents,
      creator_share_cents: split.creatorShareCents,
      source: SALE_SOURCE,
    });
    if (!inserted) continue;
    written++;
    addDelta(deltas, item.creator_id!, split.creatorShareCents);
  }
  await addToCreatorTotals(trx, deltas);
  return written;
}

/**
 * Reverses every sale record of a refunded order's items; answers how many reversals were
 * written. Items never credited (the refund came before the payment) get none, so each item's
 * records always net to zero after a refund.
 */
export async function reverseOrderEarnings(trx: Transaction<DB>, orderId: string): Promise<number> {
  const sales = await orderSales(trx, orderId);
  let written = 0;
  const deltas = new Map<string, Cents>();
  for (const sale of sales) {
    const inserted = await insertEarning(trx, {
      user_id: sale.user_id,
      order_item_id: sale.order_item_id,
      kind: 'reversal',
      amount_cents: -sale.amount_cents,
      margin_cents: -sale.margin_cents,
      creator_share_cents: -sale.creator_share_cents,
      source: sale.source,
    });
    if (!inserted) continue;
    written++;
    if (sale.user_id) addDelta(deltas, sale.user_id, -sale.creator_share_cents);
  }
  await addToCreatorTotals(trx, deltas);
  return written;
}
