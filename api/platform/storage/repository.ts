/** SQL for server_instances (live processes) and pending_objects (files announced before their row commits). */
import type { Kysely, Transaction } from 'kysely';
import type { StorageBucket } from '../../../shared/constants.ts';
import type { DB } from '../db/schema.ts';

/** A file in object storage, by its address. */
export interface StoredFile {
  bucket: StorageBucket;
  key: string;
}

export async function registerInstance(db: Kysely<DB>, instanceId: string): Promise<void> {
  await db.insertInto('server_instances').values({ id: instanceId }).execute();
}

export async function beatHeartbeat(db: Kysely<DB>, instanceId: string): Promise<void> {
  await db.updateTable('server_instances').set({ heartbeat_at: new Date() }).where('id', '=', instanceId).execute();
}

export async function unregisterInstance(db: Kysely<DB>, instanceId: string): Promise<void> {
  await db.deleteFrom('server_instances').where('id', '=', instanceId).execute();
}

/** Instances whose heartbeat is at or after the given time, or every registered one. */
export async function instanceIds(db: Kysely<DB>, beatSince?: Date): Promise<string[]> {
  let query = db.selectFrom('server_instances').select('id');
  if (beatSince) query = query.where('heartbeat_at', '>=', beatSince);
  return (await query.execute()).map((r) => r.id);
}

export async function deleteInstances(db: Kysely<DB>, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('server_instances').where('id', 'in', ids).execute();
}

export async function insertPending(db: Kysely<DB> | Transaction<DB>, files: StoredFile[], instanceId: string): Promise<void> {
  await db
    .insertInto('pending_objects')
    .values(files.map((f) => ({ bucket: f.bucket, key: f.key, instance_id: instanceId })))
    .execute();
}

/** Marks files of a row being deleted in the same transaction; a file already pending stays as it is. */
export async function retirePending(trx: Transaction<DB>, files: StoredFile[], instanceId: string): Promise<void> {
  await trx
    .insertInto('pending_objects')
    .values(files.map((f) => ({ bucket: f.bucket, key: f.key, instance_id: instanceId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function deletePending(db: Kysely<DB> | Transaction<DB>, file: StoredFile): Promise<void> {
  await db.deleteFrom('pending_objects').where('bucket', '=', file.bucket).where('key', '=', file.key).execute();
}

export async function allPending(db: Kysely<DB>): Promise<Array<StoredFile & { instance_id: string }>> {
  return db.selectFrom('pending_objects').selectAll().execute();
}

export async function pendingOf(db: Kysely<DB>, instanceId: string): Promise<StoredFile[]> {
  return db.selectFrom('pending_objects').select(['bucket', 'key']).where('instance_id', '=', instanceId).execute();
}
