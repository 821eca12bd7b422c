/**
 * The print shop wired into the app: app.fulfilment and app.shipping (Printful with
 * PRINTFUL_API_KEY, else the embedded print shop and the catalogue's rates), app.embeddedPod
 * (whose clock moves its orders along while the app serves; tests call tick()) with its
 * parcels' tracking pages, and app.fulfilmentWebhooks, which tells the Printful webhook who
 * is reporting. The embedded shop reports to this app's own /api/webhooks/printful through
 * inject(), with its own token, so its reports take the real route as Printful's do.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { appSecret } from '../../platform/settings/secrets.ts';
import type { EmbeddedPod } from './embedded-pod.ts';
import type { FulfilmentProvider } from './fulfilment-provider.ts';
import { openFulfilment, openShipping, printfulClient } from './open.ts';
import type { ShippingProvider } from './shipping-provider.ts';
import trackingRoutes from './tracking-routes.ts';
import { fulfilmentWebhooks, type FulfilmentWebhooks } from './webhooks.ts';

declare module 'fastify' {
  interface FastifyInstance {
    fulfilment: FulfilmentProvider;
    /** The embedded print-on-demand simulator (it also serves the tracking pages of its parcels). */
    embeddedPod: EmbeddedPod;
    shipping: ShippingProvider;
    fulfilmentWebhooks: FulfilmentWebhooks;
  }
}

export const PRINTFUL_WEBHOOK_PATH = '/api/webhooks/printful';

async function fulfilment(app: FastifyInstance) {
  const { config } = app;
  const podToken = await appSecret(app.db, 'embedded-pod.webhook');
  const client = printfulClient(config);
  const { provider, embedded: pod } = openFulfilment(config, {
    db: app.db,
    client,
    deliver: async (event) => {
      const res = await app.inject({ method: 'POST', url: `${PRINTFUL_WEBHOOK_PATH}?token=${encodeURIComponent(podToken)}`, payload: event });
      return { statusCode: res.statusCode, body: res.body };
    },
    log: (msg, err) => app.log.warn({ err }, msg),
  });
  app.decorate('embeddedPod', pod);
  app.decorate('fulfilment', provider);
  app.decorate('shipping', openShipping(config, { buckets: app.catalogue.shipping, client }));
  app.decorate('fulfilmentWebhooks', fulfilmentWebhooks({ printful: config.printful?.webhookToken ?? null, embedded: podToken }));
  await app.register(trackingRoutes);
  // The simulator's clock runs even with Printful configured, so parcels it already holds arrive.
  if (app.background.printShop) app.addHook('onReady', async () => pod.start());
  app.addHook('onClose', async () => pod.stop());
}

export default fp(fulfilment, { name: 'fulfilment', dependencies: ['context'] });
