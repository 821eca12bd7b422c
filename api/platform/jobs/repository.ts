/** SQL for the jobs table: queueing, claiming, leases and outcomes. */
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface JobRow {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  run_after: Date;
  locked_by: string | null;
}

export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  dedupeKey: string | null;
  runAfter: Date;
  maxAttempts?: number;
}

/** Answers false when a job with the same dedupe key already exists. */
export async function insertJob(db: Kysely<DB> | Transaction<DB>, job: NewJob): Promise<boolean> {
  const rows = await db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      dedupe_key: job.dedupeKey,
      run_after: job.runAfter,
      ...(job.maxAttempts ? { max_attempts: job.maxAttempts } : {}),
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** now() plus a number of seconds, in the database's clock. */
function inSeconds(seconds: number) {
  return sql<Date>`now() + make_interval(secs => ${seconds}::double precision)`;
}

/** Makes due at once every running job not held by this instance; answers how many. */
export async function expireOtherLeases(db: Kysely<DB>, instanceId: string): Promise<number> {
  const res = await db
    .updateTable('jobs')
    .set({ locked_until: sql<Date>`now()` })
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('locked_by', 'is', null), eb('locked_by', '<>', instanceId)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Fails the jobs whose lease expired during their last attempt; answers them. */
export async function failAbandonedLastAttempts(db: Kysely<DB>): Promise<Array<{ id: string; kind: string }>> {
  return db
    .updateTable('jobs')
    .set({ status: 'failed', locked_until: null, last_error: 'The process running its last attempt stopped.', updated_at: sql<Date>`now()` })
    .where('status', '=', 'running')
    .where('locked_until', '<', sql<Date>`now()`)
    .where('attempts', '>=', sql<number>`max_attempts`)
    .returning(['id', 'kind'])
    .execute();
}

/** Claims the earliest due job of the given kinds (SKIP LOCKED), or answers null. */
export async function claimJob(db: Kysely<DB>, instanceId: string, kinds: string[], leaseMs: number): Promise<JobRow | null> {
  const res = await sql<JobRow>`
    update jobs
    set status = 'running', locked_by = ${instanceId},
        locked_until = ${inSeconds(leaseMs / 1000)},
        attempts = attempts + 1, updated_at = now()
    where id = (
      select id from jobs
      where kind in (${sql.join(kinds)})
        and ((status = 'queued' and run_after <= now())
          or (status = 'running' and locked_until < now() and attempts < max_attempts))
      order by run_after
      limit 1
      for update skip locked)
    returning id, kind, payload, attempts, max_attempts, run_after, locked_by`.execute(db);
  return res.rows[0] ?? null;
}

/** Only the instance holding a running job may change it. */
function held(db: Kysely<DB>, jobId: string, instanceId: string) {
  return db.updateTable('jobs').where('id', '=', jobId).where('locked_by', '=', instanceId).where('status', '=', 'running');
}

export async function renewLease(db: Kysely<DB>, jobId: string, instanceId: string, leaseMs: number): Promise<void> {
  await held(db, jobId, instanceId)
    .set({ locked_until: inSeconds(leaseMs / 1000) })
    .execute();
}

export async function markJobDone(db: Kysely<DB>, jobId: string, instanceId: string): Promise<void> {
  await held(db, jobId, instanceId)
    .set({ status: 'done', locked_until: null, last_error: null, updated_at: sql<Date>`now()` })
    .execute();
}

/** Records a failed attempt: failed for good, or queued again after retryAfterMs. */
export async function recordJobFailure(
  db: Kysely<DB>,
  jobId: string,
  instanceId: string,
  failure: { final: boolean; message: string; retryAfterMs: number },
): Promise<void> {
  await held(db, jobId, instanceId)
    .set({
      status: failure.final ? 'failed' : 'queued',
      last_error: failure.message,
      locked_until: null,
      run_after: failure.final ? sql<Date>`run_after` : inSeconds(failure.retryAfterMs / 1000),
      updated_at: sql<Date>`now()`,
    })
    .execute();
}

/** A job by its dedupe key, locked until the transaction ends. */
export function lockJobByDedupeKey(trx: Transaction<DB>, dedupeKey: string) {
  return trx
    .selectFrom('jobs')
    .select(['id', 'kind', 'status', 'attempts', 'max_attempts', 'last_error'])
    .where('dedupe_key', '=', dedupeKey)
    .forUpdate()
    .executeTakeFirst();
}

/** A failed job queued again from its first attempt, due now; false when it was not failed. */
export async function requeueFailed(db: Kysely<DB> | Transaction<DB>, jobId: string): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({ status: 'queued', attempts: 0, run_after: sql<Date>`now()`, locked_until: null, locked_by: null, updated_at: sql<Date>`now()` })
    .where('id', '=', jobId)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
