/**
 * Print-on-demand fulfilment: Printful when PRINTFUL_API_KEY is set, else the embedded
 * simulator, whose clock moves its orders along while the app serves (tests call tick()).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EmbeddedPod } from './embedded-pod.ts';
import { PrintfulFulfilment } from './printful.ts';
import type { FulfilmentProvider } from './fulfilment-provider.ts';
import { applyFulfilmentEvent } from '../../modules/orders/fulfilment-events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    fulfilment: FulfilmentProvider;
    /** The embedded print-on-demand simulator (it also serves the tracking pages of its parcels). */
    embeddedPod: EmbeddedPod;
  }
}

async function fulfilment(app: FastifyInstance) {
  const { config } = app;
  const pod = new EmbeddedPod(app.db, {
    stepMs: config.podStepMs,
    publicUrl: config.publicUrl,
    onEvent: (trx, event, eventId) => applyFulfilmentEvent(trx, event, { publicUrl: config.publicUrl, eventId }),
    log: (msg, err) => app.log.warn({ err }, msg),
  });
  app.decorate('embeddedPod', pod);
  app.decorate(
    'fulfilment',
    config.printful ? (new PrintfulFulfilment({ apiKey: config.printful.apiKey, storeId: config.printful.storeId, baseUrl: config.printful.apiUrl }) as FulfilmentProvider) : pod,
  );
  // The simulator's clock runs even with Printful configured, so parcels it already holds arrive.
  if (config.env !== 'test') app.addHook('onReady', async () => pod.start());
  app.addHook('onClose', async () => pod.stop());
}

export default fp(fulfilment, { name: 'fulfilment', dependencies: ['context'] });
