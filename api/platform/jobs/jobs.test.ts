/**
 * The durable job runner: retries with a growing backoff, a job whose process died is taken
 * again (also by a new app on the same database: jobs survive a restart), and runners racing
 * for the same jobs run each one once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { NO_BACKGROUND, testApp, type TestApp } from '../../test/harness.ts';
import { backoffMs, JobRunner, PermanentJobError } from './runner.ts';

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

async function addJob(kind: string, values: Record<string, unknown> = {}): Promise<string> {
  const row = await t.db
    .insertInto('jobs')
    .values({ kind, payload: JSON.stringify({ n: 1 }), ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const job = (id: string) => t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const makeDue = (id: string) => t.db.updateTable('jobs').set({ run_after: sql<Date>`now()` }).where('id', '=', id).execute();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('retries', () => {
  it('runs a job that fails twice three times, waiting longer before each retry', async () => {
    const runner = new JobRunner(t.db, { instanceId: 'runner-retry', backoffBaseMs: 1000 });
    let calls = 0;
    runner.register('test.flaky', async () => {
      calls++;
      if (calls <= 2) throw new Error(`boom ${calls}`);
    });
    const id = await addJob('test.flaky');

    expect(await runner.runDue()).toBe(1);
    const first = await job(id);
    expect(first).toMatchObject({ status: 'queued', attempts: 1, last_error: 'boom 1', locked_until: null });
    const firstWait = first.run_after.getTime() - first.updated_at.getTime();
    expect(firstWait).toBe(2000);
    // Not due yet: nothing runs.
    expect(await runner.runDue()).toBe(0);
    expect(calls).toBe(1);

    await makeDue(id);
    expect(await runner.runDue()).toBe(1);
    const second = await job(id);
    expect(second).toMatchObject({ status: 'queued', attempts: 2, last_error: 'boom 2' });
    const secondWait = second.run_after.getTime() - second.updated_at.getTime();
    expect(secondWait).toBe(4000);
    expect(secondWait).toBeGreaterThan(firstWait);

    await makeDue(id);
    expect(await runner.runDue()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 3, last_error: null, locked_until: null, locked_by: 'runner-retry' });
    expect(calls).toBe(3);
    expect(await runner.runDue()).toBe(0);
  });

  it('caps the backoff at ten minutes', () => {
    expect([1, 2, 3].map((a) => backoffMs(a))).toEqual([2000, 4000, 8000]);
    expect(backoffMs(9)).toBe(512_000);
    expect(backoffMs(10)).toBe(600_000);
    expect(backoffMs(40)).toBe(600_000);
  });

  it('fails a job after its last attempt, and at once on a permanent error', async () => {
    const runner = new JobRunner(t.db, { instanceId: 'runner-fail', backoffBaseMs: 1 });
    let calls = 0;
    runner.register('test.broken', async (payload) => {
      calls++;
      if (payload.permanent) throw new PermanentJobError('cannot ever work');
      throw new Error('still broken');
    });
    const id = await addJob('test.broken', { max_attempts: 2 });
    const permanent = await addJob('test.broken', { payload: JSON.stringify({ permanent: true }) });
    await runner.runDue();
    await makeDue(id);
    await runner.runDue();
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'still broken' });
    expect(await job(permanent)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'cannot ever work' });
    expect(calls).toBe(3);
    await makeDue(id);
    expect(await runner.runDue()).toBe(0);
  });

  it('leaves kinds it has no handler for to the runners that have one', async () => {
    const runner = new JobRunner(t.db, { instanceId: 'runner-narrow' });
    runner.register('test.mine', async () => {});
    const other = await addJob('test.other');
    const mine = await addJob('test.mine');
    expect(await runner.runDue()).toBe(1);
    expect((await job(mine)).status).toBe('done');
    expect(await job(other)).toMatchObject({ status: 'queued', attempts: 0 });
  });
});

describe('a worker that died', () => {
  it('takes a job again once its lease has expired, but not while it holds', async () => {
    const runner = new JobRunner(t.db, { instanceId: 'runner-rescue' });
    const ran: string[] = [];
    runner.register('test.rescue', async (_payload, j) => void ran.push(j.id));
    const expired = await addJob('test.rescue', {
      status: 'running',
      attempts: 1,
      locked_by: 'dead-process',
      locked_until: sql<Date>`now() - interval '1 second'`,
    });
    const held = await addJob('test.rescue', {
      status: 'running',
      attempts: 1,
      locked_by: 'live-process',
      locked_until: sql<Date>`now() + interval '1 minute'`,
    });
    expect(await runner.runDue()).toBe(1);
    expect(ran).toEqual([expired]);
    expect(await job(expired)).toMatchObject({ status: 'done', attempts: 2, locked_by: 'runner-rescue' });
    expect(await job(held)).toMatchObject({ status: 'running', attempts: 1, locked_by: 'live-process' });
  });

  it('fails a job whose process died during its last attempt instead of trying it forever', async () => {
    const runner = new JobRunner(t.db, { instanceId: 'runner-last' });
    let calls = 0;
    runner.register('test.last', async () => void calls++);
    const id = await addJob('test.last', {
      status: 'running',
      attempts: 3,
      max_attempts: 3,
      locked_by: 'dead-process',
      locked_until: sql<Date>`now() - interval '1 second'`,
    });
    await runner.runDue();
    expect(calls).toBe(0);
    expect((await job(id)).status).toBe('failed');
  });

  it('keeps a long job: its lease is renewed while the handler works', async () => {
    const holder = new JobRunner(t.db, { instanceId: 'runner-long', leaseMs: 150 });
    const other = new JobRunner(t.db, { instanceId: 'runner-eager', leaseMs: 150 });
    let runs = 0;
    const slow = async () => {
      runs++;
      await sleep(700);
    };
    holder.register('test.long', slow);
    other.register('test.long', slow);
    const id = await addJob('test.long');
    const holding = holder.runDue();
    await sleep(30);
    for (let i = 0; i < 10; i++) {
      expect(await other.runDue()).toBe(0);
      await sleep(60);
    }
    await holding;
    expect(runs).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 1, locked_by: 'runner-long' });
  });

  it('survives a restart: a new app on the same database finishes the job the stopped one held', async () => {
    const id = await addJob('test.restart');
    // The app takes the job and its process "dies" before finishing: the app stops with the job claimed.
    t.app.jobs.register('test.restart', async () => {
      throw new Error('the first process never gets this far');
    });
    const claimed = await t.app.jobs.claim();
    expect(claimed?.id).toBe(id);
    await t.app.close();
    expect(await job(id)).toMatchObject({ status: 'running', attempts: 1, locked_by: t.app.jobs.instanceId });

    if (t.database.kind === 'postgres') {
      // Other processes may share PostgreSQL, so only the lease running out frees the job.
      await t.db.updateTable('jobs').set({ locked_until: sql<Date>`now() - interval '1 second'` }).where('id', '=', id).execute();
    }
    const again = await buildApp({ config: t.config, database: t.database, storage: t.storage, catalogue: t.app.catalogue, ownsDatabase: false }, NO_BACKGROUND);
    try {
      const finished: string[] = [];
      again.jobs.register('test.restart', async (_p, j) => void finished.push(j.id));
      expect(again.jobs.instanceId).not.toBe(t.app.jobs.instanceId);
      await again.jobs.runDue();
      expect(finished).toEqual([id]);
      expect(await job(id)).toMatchObject({ status: 'done', attempts: 2, locked_by: again.jobs.instanceId });
    } finally {
      await again.close();
    }
  });
});

describe('the poll loop', () => {
  it('runs due jobs on its own, and stop() waits for the job in hand', async () => {
    const runner = new JobRunner(t.db, { instanceId: 'runner-poll' });
    let finished = 0;
    runner.register('test.poll', async () => {
      await sleep(100);
      finished++;
    });
    const id = await addJob('test.poll');
    runner.start(20);
    for (let i = 0; i < 100 && (await job(id)).status === 'queued'; i++) await sleep(10);
    await runner.stop();
    expect(finished).toBe(1);
    expect((await job(id)).status).toBe('done');
    // Stopped: a new job waits.
    const later = await addJob('test.poll');
    await sleep(100);
    expect((await job(later)).status).toBe('queued');
  });
});

describe('runners racing', () => {
  it('runs every job once when several runners take jobs at the same time', async () => {
    const runs = new Map<string, number>();
    const handler = async (_payload: Record<string, unknown>, j: { id: string }) => {
      runs.set(j.id, (runs.get(j.id) ?? 0) + 1);
      await sleep(2);
    };
    const runners = ['race-a', 'race-b', 'race-c', 'race-d'].map((instanceId) => {
      const r = new JobRunner(t.db, { instanceId });
      r.register('test.race', handler);
      return r;
    });
    const ids = await Promise.all(Array.from({ length: 30 }, () => addJob('test.race')));
    const counts = await Promise.all(runners.map((r) => r.runDue()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const rows = await t.db.selectFrom('jobs').select(['status', 'attempts']).where('kind', '=', 'test.race').execute();
    expect(rows.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
  });

  it('runs every job once with several workers in one runner', async () => {
    const runs = new Map<string, number>();
    let inFlight = 0;
    let most = 0;
    const runner = new JobRunner(t.db, { instanceId: 'runner-wide' });
    runner.register('test.wide', async (_payload, j) => {
      inFlight++;
      most = Math.max(most, inFlight);
      runs.set(j.id, (runs.get(j.id) ?? 0) + 1);
      await sleep(10);
      inFlight--;
    });
    const ids = await Promise.all(Array.from({ length: 20 }, () => addJob('test.wide')));
    expect(await runner.runDue(4)).toBe(20);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(4);
  });
});

describe('the background switch', () => {
  it('runs queued jobs by itself in an app built with its background loops on, the default', async () => {
    const id = await addJob('test.background');
    const serving = await buildApp({ config: t.config, database: t.database, storage: t.storage, catalogue: t.app.catalogue, ownsDatabase: false });
    try {
      const ran = new Promise<string>((resolve) => serving.jobs.register('test.background', async (_p, j) => resolve(j.id)));
      expect(await ran).toBe(id);
      await expect.poll(async () => (await job(id)).status, { timeout: 5000 }).toBe('done');
    } finally {
      await serving.close();
    }
  });
});
