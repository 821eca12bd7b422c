/**
 * The payout run as a durable job: `payouts.run` with the period in its payload, queued for the
 * period's 1st at 00:00 UTC under the dedupe key `payouts.run:YYYY-MM-01`, so however many
 * processes queue it, it exists once. Each run queues the next month's before it starts, and
 * every process that runs the job loop makes sure the current and the next month's are queued
 * as it starts, so the schedule survives restarts and an empty jobs table. A run that could not
 * send every payout fails its attempt and the runner tries again with its backoff.
 */
import type { FastifyInstance } from 'fastify';
import { JOB_KINDS } from '../../platform/jobs/enqueue.ts';
import { PermanentJobError } from '../../platform/jobs/runner.ts';
import { nextPeriod, periodOfMonth } from './run-rules.ts';
import { ensurePayoutSchedule, runPayouts, schedulePayoutRun, type PayoutRunDeps } from './run.ts';

export function registerPayoutJobs(app: FastifyInstance, deps: PayoutRunDeps): void {
  app.jobs.register(JOB_KINDS.payoutsRun, async (payload) => {
    const period = typeof payload.period === 'string' ? periodOfMonth(payload.period) : undefined;
    if (!period) throw new PermanentJobError('The job names no period.');
    await schedulePayoutRun(deps.db, nextPeriod(period));
    const run = await runPayouts(deps, period);
    app.log.info({ payoutRun: run }, `payout run ${period}`);
    if (run.errors > 0) throw new Error(`${run.errors} payout(s) of ${period} could not be submitted yet`);
  });
  // Only where the job loop runs (the server): tests drive runs themselves.
  if (app.background.jobs) app.addHook('onReady', async () => ensurePayoutSchedule(deps.db, deps.now ? deps.now() : new Date()));
}
