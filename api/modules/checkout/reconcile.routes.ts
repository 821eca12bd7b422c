/**
 * The payment reconciliation in the app: the daily job (queued for 03:00 UTC under a dedupe key
 * per day, so it exists once however many processes queue it; each run queues the next day's,
 * and every process that runs the job loop makes sure today's and tomorrow's are queued as it
 * starts), and the admin portal's routes: the latest runs, and a run now.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paymentReconciliationsRoute, runPaymentReconciliationRoute } from '../../../shared/schemas/admin-orders.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from '../../platform/http/errors.ts';
import { JOB_KINDS } from '../../platform/jobs/enqueue.ts';
import { nextReconcileAt, recentReconciliations, reconcilePayments, runView, scheduleReconcile, type ReconcileDeps } from './reconcile.ts';

const SHOWN_RUNS = 10;

const reconcileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = (): ReconcileDeps => ({ db: app.db, publicUrl: app.config.publicUrl, log: app.log, payments: app.payments });

  app.jobs.register(JOB_KINDS.reconcilePayments, async () => {
    const now = app.clock.now();
    await scheduleReconcile(app.db, nextReconcileAt(now));
    await reconcilePayments(deps(), now);
  });
  if (app.background.jobs) {
    app.addHook('onReady', async () => {
      const next = nextReconcileAt(app.clock.now());
      await scheduleReconcile(app.db, next);
    });
  }

  app.route({
    ...paymentReconciliationsRoute,
    handler: async () => ({ success: true as const, runs: await recentReconciliations(app.db, SHOWN_RUNS) }),
  });

  app.route({
    ...runPaymentReconciliationRoute,
    handler: async (request) => {
      let run;
      try {
        run = await reconcilePayments({ ...deps(), log: request.log }, app.clock.now());
      } catch (err) {
        request.log.error({ err }, 'the payment reconciliation could not read the payment provider');
        throw new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, 'The payment provider could not be reached. Please try again in a few minutes.');
      }
      return { success: true as const, run: runView(run, new Date()) };
    },
  });
};

export default reconcileRoutes;
