/**
 * The embedded print shop's own state (embedded_pod_orders): its orders, the clock that moves
 * them, and its parcels' tracking. Nothing here reads the app's tables.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, EmbeddedPodStatus } from '../../platform/db/schema.ts';

const afterStep = (stepMs: number) => sql<Date>`now() + make_interval(secs => ${stepMs / 1000}::double precision)`;

/** A new order, due for its first step after one step; undefined when the external id has one already. */
export function insertPodOrder(db: Kysely<DB>, row: { id: string; externalId: string; recipient: unknown; items: unknown }, stepMs: number) {
  return db
    .insertInto('embedded_pod_orders')
    .values({
      id: row.id,
      external_id: row.externalId,
      recipient: JSON.stringify(row.recipient),
      items: JSON.stringify(row.items),
      next_step_at: afterStep(stepMs),
    })
    .onConflict((oc) => oc.column('external_id').doNothing())
    .returning(['id', 'status'])
    .executeTakeFirst();
}

export function podOrderByExternalId(db: Kysely<DB>, externalId: string) {
  return db.selectFrom('embedded_pod_orders').select(['id', 'status']).where('external_id', '=', externalId).executeTakeFirst();
}

export interface DuePodOrder {
  id: string;
  external_id: string;
  status: EmbeddedPodStatus;
  tracking_number: string | null;
  tracking_url: string | null;
}

/** The order most overdue for its next step, locked (orders another process holds are skipped). */
export async function lockDuePodOrder(trx: Transaction<DB>): Promise<DuePodOrder | undefined> {
  const res = await sql<DuePodOrder>`
    select id, external_id, status, tracking_number, tracking_url from embedded_pod_orders
    where status in ('pending', 'inprocess', 'fulfilled') and next_step_at <= now()
    order by next_step_at limit 1 for update skip locked`.execute(trx);
  return res.rows[0];
}

/**
 * Puts the order's next step off by one step (so no one else takes it while it is announced)
 * and keeps the parcel's tracking, so every announcement of the step says the same.
 */
export async function holdPodStep(trx: Transaction<DB>, id: string, stepMs: number, tracking: { number: string | null; url: string | null }): Promise<void> {
  await trx
    .updateTable('embedded_pod_orders')
    .set({ tracking_number: tracking.number, tracking_url: tracking.url, next_step_at: afterStep(stepMs) })
    .where('id', '=', id)
    .execute();
}

/** Takes an announced step; false when the order is no longer where the step started (cancelled meanwhile). */
export async function takePodStep(db: Kysely<DB>, id: string, from: EmbeddedPodStatus, to: EmbeddedPodStatus, stepMs: number): Promise<boolean> {
  const res = await db
    .updateTable('embedded_pod_orders')
    .set({ status: to, next_step_at: afterStep(stepMs), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export function parcelByTrackingNumber(db: Kysely<DB>, trackingNumber: string) {
  return db.selectFrom('embedded_pod_orders').select(['status', 'updated_at']).where('tracking_number', '=', trackingNumber).executeTakeFirst();
}
