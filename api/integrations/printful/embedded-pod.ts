/**
 * The embedded print-on-demand simulator: a print shop inside this app for running without a
 * Printful key. It keeps its own orders (embedded_pod_orders, one per external id, so a second
 * submission answers the first order), and a clock moves each order a step every `stepMs`:
 * pending -> inprocess -> fulfilled (a parcel with a tracking number and a tracking page on this
 * site) -> delivered. It reports each step as Printful does, with a Printful-shaped webhook
 * event POSTed to the shop's webhook URL; a step is taken only once its report was accepted,
 * and a report is sent again (same content, same event id) until it is, so the app applies each
 * step exactly once.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, EmbeddedPodStatus } from '../../platform/db/schema.ts';
import type { CancelOutcome, FulfilmentEvent, FulfilmentOrder, FulfilmentOrderRequest, FulfilmentProvider } from './fulfilment-provider.ts';
import { holdPodStep, insertPodOrder, lockDuePodOrder, parcelByTrackingNumber, podOrderByExternalId, takePodStep } from './repository.ts';

/** Sends one report to the shop's webhook URL and answers the HTTP status. */
export type PodEventDelivery = (event: FulfilmentEvent) => Promise<{ statusCode: number; body: string }>;

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

/** The id a report of this shop is processed under: its order and the state reached, so a resent report is known again. */
export function podEventId(event: FulfilmentEvent): string | undefined {
  const order = event.data?.order;
  return order?.id !== undefined && order.status ? `pod:${order.id}:${order.status}` : undefined;
}

export class EmbeddedPod implements FulfilmentProvider {
  readonly kind = 'embedded' as const;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;
  #stopping = false;
  /** Steps and cancellations of this process, one at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    readonly options: {
      stepMs: number;
      publicUrl: string;
      deliver: PodEventDelivery;
      log?: (msg: string, err?: unknown) => void;
    },
  ) {}

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Sends a report; throws unless the shop's webhook accepted it. */
  async #announce(event: FulfilmentEvent): Promise<void> {
    const res = await this.options.deliver(event);
    if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`the webhook answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }

  trackingUrl(trackingNumber: string): string {
    return `${this.options.publicUrl}/track/${trackingNumber}`;
  }

  /** A parcel of this shop by its tracking number, for its tracking page. */
  parcel(trackingNumber: string) {
    return parcelByTrackingNumber(this.db, trackingNumber);
  }

  async submitOrder(request: FulfilmentOrderRequest): Promise<FulfilmentOrder> {
    const row = { id: `pod_${randomBytes(12).toString('hex')}`, externalId: request.externalId, recipient: request.recipient, items: request.items };
    const order = (await insertPodOrder(this.db, row, this.options.stepMs)) ?? (await podOrderByExternalId(this.db, request.externalId));
    if (!order) throw new Error(`print-on-demand order ${request.externalId} vanished`);
    return { providerOrderId: order.id, status: order.status };
  }

  /**
   * Cancels an order still waiting to be printed, reporting it (order_canceled) like any other
   * step; one being printed or shipped goes on. A report that is not accepted throws, and the
   * cancellation is asked for again later.
   */
  cancelOrder(externalId: string): Promise<CancelOutcome> {
    return this.#exclusive(async () => {
      const order = await podOrderByExternalId(this.db, externalId);
      if (!order) return 'not-found';
      if (order.status === 'canceled') return 'cancelled';
      if (order.status !== 'pending') return 'too-late';
      await this.#announce({ type: 'order_canceled', data: { order: { id: order.id, external_id: externalId, status: 'canceled' } } });
      return (await takePodStep(this.db, order.id, 'pending', 'canceled', this.options.stepMs)) ? 'cancelled' : 'too-late';
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
      const stepped = await this.#exclusive(() => this.#stepOne());
      if (!stepped) break;
      steps++;
    }
    return steps;
  }

  /**
   * Takes the most overdue order's next step: held for one step while its report is sent, then
   * taken once the report is accepted. A report that is not accepted leaves the order where it
   * was, to try again a step later without holding up the others.
   */
  async #stepOne(): Promise<boolean> {
    const due = await this.db.transaction().execute(async (trx) => {
      const order = await lockDuePodOrder(trx);
      if (!order) return null;
      const status = NEXT[order.status]!;
      const number = order.tracking_number ?? (status === 'fulfilled' ? newTrackingNumber() : null);
      const tracking = { number, url: order.tracking_url ?? (number ? this.trackingUrl(number) : null) };
      await holdPodStep(trx, order.id, this.options.stepMs, tracking);
      return { order, status, tracking };
    });
    if (!due) return false;
    const { order, status, tracking } = due;
    const event: FulfilmentEvent = {
      type: status === 'fulfilled' ? 'package_shipped' : 'order_updated',
      data: {
        order: { id: order.id, external_id: order.external_id, status },
        ...(tracking.number ? { shipment: { tracking_number: tracking.number, tracking_url: tracking.url, carrier: 'FrameMerch Post' } } : {}),
      },
    };
    try {
      await this.#announce(event);
    } catch (err) {
      this.options.log?.(`the print-on-demand order ${order.id} could not take its step`, err);
      return false;
    }
    await takePodStep(this.db, order.id, order.status, status, this.options.stepMs);
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
