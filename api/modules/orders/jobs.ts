/**
 * The background job runner (jobs/runner.ts) and the handlers of every job kind. It polls while
 * the app serves and stops, letting the job in hand finish, when the app closes; tests call
 * runDue(). Jobs are claimed under this process's instance id (the one its uploads use).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { cancelFulfilment } from './cancel-fulfilment.ts';
import { fulfilOrder } from './fulfil-order.ts';
import { refundPaymentJob } from './refund-payment.ts';
import { JOB_KINDS } from '../../platform/jobs/enqueue.ts';
import { JobRunner, PermanentJobError } from '../../platform/jobs/runner.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

async function jobs(app: FastifyInstance) {
  const runner = new JobRunner(app.db, { instanceId: app.pendingObjects.instanceId, log: (msg, err) => app.log.error({ err }, msg) });
  app.decorate('jobs', runner);

  runner.register(JOB_KINDS.fulfilOrder, async (payload) => {
    const orderId = payload.orderId;
    if (typeof orderId !== 'string') throw new PermanentJobError('The job names no order.');
    await fulfilOrder(
      {
        db: app.db,
        storage: app.storage,
        pending: app.pendingObjects,
        catalogue: app.catalogue,
        provider: app.fulfilment,
        publicUrl: app.config.publicUrl,
        log: (msg) => app.log.info(msg),
      },
      orderId,
    );
  });

  runner.register(JOB_KINDS.cancelFulfilment, async (payload) => {
    const orderId = payload.orderId;
    if (typeof orderId !== 'string') throw new PermanentJobError('The job names no order.');
    const providers = { embedded: app.embeddedPod, ...(app.fulfilment.kind === 'printful' ? { printful: app.fulfilment } : {}) };
    await cancelFulfilment({ db: app.db, providers, log: (msg) => app.log.info(msg) }, orderId);
  });

  runner.register(JOB_KINDS.refundPayment, (payload) => refundPaymentJob(app.payments, payload, (msg) => app.log.info(msg)));

  // With the embedded database this is the only process, so jobs another process held are orphans.
  if (app.database.kind === 'pglite') await runner.releaseOrphans();
  if (app.background.jobs) app.addHook('onReady', async () => runner.start(app.config.jobPollMs));
  app.addHook('onClose', async () => runner.stop());
}

export default fp(jobs, { name: 'jobs', dependencies: ['context', 'media', 'fulfilment', 'payments'] });
