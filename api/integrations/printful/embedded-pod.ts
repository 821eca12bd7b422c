/**
 * The embedded print-on-demand simulator: a print shop inside this app for running without a
 * Printful key. It keeps its own orders (embedded_pod_orders, one per external id, so a second
 * submission answers the first order), and a clock moves each order a step every `stepMs`:
 * pending -> inprocess -> fulfilled (a parcel with a tracking number and a tracking page on this
 * site) -> delivered. Each step is reported as a Printful-shaped webhook event to the shop's
 * handler, in the transaction that takes the step, so a step and its effect commit together.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { DB, EmbeddedPodStatus } from '../../platform/db/schema.ts';
import type { CancelOutcome, FulfilmentEvent, FulfilmentOrder, FulfilmentOrderRequest, FulfilmentProvider } from './fulfilment-provider.ts';

export type PodEventSink = (trx: Transaction<DB>, event: FulfilmentEvent, eventId: string) => Promise<unknown>;

const NEXT: Partial<Record<EmbeddedPodStatus, EmbeddedPodStatus>> = {
  pending: 'inprocess',
  inprocess: 'fulfilled',
  fulfilled: 'delivered',
};

/** What the tracking page says about a parcel in each state. */
export const PARCEL_STATUS_LABELS: Readonly<Record<EmbeddedPodStatus, string>> = {
  pending: 'Order received by the print shop',
  inprocess: 'Being printed',
  fulfilled: 'In transit',
  delivered: 'Delivered',
  canceled: 'Cancelled',
};

/** 'FM' and twelve digits (TRACKING_NUMBER_PATTERN in shared/schemas/fulfilment.ts). */
export function newTrackingNumber(): string {
  return `FM${randomInt(1e11, 1e12)}`;
}

export class EmbeddedPod implements FulfilmentProvider {
  readonly kind = 'embedded' as const;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  #stopping = false;

  constructor(
    private readonly db: Kysely<DB>,
    readonly options: {
      stepMs: number;
      publicUrl: string;
      onEvent: PodEventSink;
      log?: (msg: string, err?: unknown) => void;
    },
  ) {}

  trackingUrl(trackingNumber: string): string {
    return `${this.options.publicUrl}/track/${trackingNumber}`;
  }

  async submitOrder(request: FulfilmentOrderRequest): Promise<FulfilmentOrder> {
    const inserted = await this.db
      .insertInto('embedded_pod_orders')
      .values({
        id: `pod_${randomBytes(12).toString('hex')}`,
        external_id: request.externalId,
        recipient: JSON.stringify(request.recipient),
        items: JSON.stringify(request.items),
        next_step_at: sql<Date>`now() + make_interval(secs => ${this.options.stepMs / 1000}::double precision)`,
      })
      .onConflict((oc) => oc.column('external_id').doNothing())
      .returning(['id', 'status'])
      .executeTakeFirst();
    const order =
      inserted ??
      (await this.db.selectFrom('embedded_pod_orders').select(['id', 'status']).where('external_id', '=', request.externalId).executeTakeFirstOrThrow());
    return { providerOrderId: order.id, status: order.status };
  }

  /**
   * Cancels an order still waiting to be printed, reporting it (order_canceled) like any other
   * step; one being printed or shipped goes on.
   */
  async cancelOrder(externalId: string): Promise<CancelOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const res = await sql<{ id: string; status: EmbeddedPodStatus }>`
        select id, status from embedded_pod_orders where external_id = ${externalId} for update`.execute(trx);
      const order = res.rows[0];
      if (!order) return 'not-found';
      if (order.status === 'canceled') return 'cancelled';
      if (order.status !== 'pending') return 'too-late';
      await trx.updateTable('embedded_pod_orders').set({ status: 'canceled', updated_at: sql<Date>`now()` }).where('id', '=', order.id).execute();
      const event: FulfilmentEvent = { type: 'order_canceled', data: { order: { id: order.id, external_id: externalId, status: 'canceled' } } };
      await this.options.onEvent(trx, event, `pod:${order.id}:canceled`);
      return 'cancelled';
    });
  }

  /** Moves every order that is due one step; answers how many steps were taken. */
  tick(): Promise<number> {
    this.#running ??= this.#tick().finally(() => (this.#running = null));
    return this.#running;
  }

  async #tick(): Promise<number> {
    let steps = 0;
    while (!this.#stopping) {
      const current: { id: string | null } = { id: null };
      try {
        const stepped = await this.db.transaction().execute((trx) => this.#stepOne(trx, current));
        if (!stepped) break;
        steps++;
      } catch (err) {
        if (!current.id) throw err;
        // The step rolled back with its event; the order tries again a step later, without holding up the others.
        this.options.log?.(`the print-on-demand order ${current.id} could not take its step`, err);
        await this.db
          .updateTable('embedded_pod_orders')
          .set({ next_step_at: sql<Date>`now() + make_interval(secs => ${this.options.stepMs / 1000}::double precision)` })
          .where('id', '=', current.id)
          .execute();
        break;
      }
    }
    return steps;
  }

  async #stepOne(trx: Transaction<DB>, current: { id: string | null }): Promise<boolean> {
    const res = await sql<{ id: string; external_id: string; status: EmbeddedPodStatus; tracking_number: string | null; tracking_url: string | null }>`
      select id, external_id, status, tracking_number, tracking_url from embedded_pod_orders
      where status in ('pending', 'inprocess', 'fulfilled') and next_step_at <= now()
      order by next_step_at limit 1 for update skip locked`.execute(trx);
    const order = res.rows[0];
    if (!order) return false;
    current.id = order.id;
    const status = NEXT[order.status]!;
    const trackingNumber = order.tracking_number ?? (status === 'fulfilled' ? newTrackingNumber() : null);
    const trackingUrl = order.tracking_url ?? (trackingNumber ? this.trackingUrl(trackingNumber) : null);
    await trx
      .updateTable('embedded_pod_orders')
      .set({
        status,
        tracking_number: trackingNumber,
        tracking_url: trackingUrl,
        next_step_at: sql<Date>`now() + make_interval(secs => ${this.options.stepMs / 1000}::double precision)`,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', order.id)
      .execute();
    const event: FulfilmentEvent = {
      type: status === 'fulfilled' ? 'package_shipped' : 'order_updated',
      data: {
        order: { id: order.id, external_id: order.external_id, status },
        ...(trackingNumber ? { shipment: { tracking_number: trackingNumber, tracking_url: trackingUrl, carrier: 'FrameMerch Post' } } : {}),
      },
    };
    await this.options.onEvent(trx, event, `pod:${order.id}:${status}`);
    return true;
  }

  start(intervalMs = Math.max(10, Math.floor(this.options.stepMs / 2))): void {
    if (this.#timer) return;
    this.#stopping = false;
    this.#timer = setInterval(() => {
      void this.tick().catch((err) => this.options.log?.('the print-on-demand simulator failed a step', err));
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => 0);
  }
}
