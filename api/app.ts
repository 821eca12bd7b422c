/**
 * The FrameMerch API as a Fastify plugin, and the one place its parts are wired together:
 * platform plugins, the outside services (integrations/, each its real adapter or its embedded
 * twin by configuration) and each module's routes. It never listens: server.ts does, and tests
 * drive it through inject(). Technology parts arrive ready-made in the context (see bootstrap.ts).
 */
import compress from '@fastify/compress';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import auth from './platform/http/auth.ts';
import canonicalHost from './platform/http/canonical-host.ts';
import clockRoutes from './platform/http/clock-routes.ts';
import context, { type AppContext, type BackgroundLoops } from './platform/http/context.ts';
import docs from './platform/http/docs.ts';
import errors from './platform/http/error-handler.ts';
import healthRoutes from './platform/http/health.ts';
import { requestLogFields } from './platform/http/log-redaction.ts';
import mediaRoutes from './platform/http/media-routes.ts';
import security from './platform/http/security.ts';
import web from './platform/http/web.ts';
import mail from './platform/mail/plugin.ts';
import media from './platform/media/plugin.ts';
import { identityPlugin as identity } from './integrations/google-oidc/index.ts';
import { printShopPlugin as fulfilment } from './integrations/printful/index.ts';
import { openMailTransport } from './integrations/smtp/index.ts';
import { embeddedPayRoutes, paymentsPlugin as payments } from './integrations/stripe/index.ts';
import { accountRoutes, deleteAccount } from './modules/accounts/index.ts';
import { adminRoutes } from './modules/admin/index.ts';
import { captureRoutes } from './modules/capture/index.ts';
import { channelRoutes } from './modules/channels/index.ts';
import { checkoutRoutes, reconcileRoutes, paymentWebhookRoutes as webhookRoutes } from './modules/checkout/index.ts';
import { analyticsRoutes } from './modules/earnings/index.ts';
import { mailRoutes } from './modules/mail/index.ts';
import { catalogueRoutes, printRoutes, productRoutes } from './modules/merch/index.ts';
import { payoutRoutes } from './modules/payouts/index.ts';
import { jobsPlugin as jobs, ordersRoutes as fulfilmentWebhookRoutes } from './modules/orders/index.ts';
import { settingsRoutes } from './modules/settings/index.ts';
import { subscriptionRoutes } from './modules/subscriptions/index.ts';
import { videoRoutes } from './modules/videos/index.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,100}$/;

/**
 * How the app is built. Every background loop runs unless switched off here: `jobs` (the job
 * runner), `mail` (the mail sender), `payments` (the embedded payment provider's expiry and
 * webhook delivery loop) and `printShop` (the embedded print shop's clock). The tests switch
 * them all off and drive each by hand: jobs.runDue(), mailSender.runOnce(),
 * embeddedPayments.deliverDue() and expireDue(), embeddedPod.tick().
 */
export type AppOptions = Partial<BackgroundLoops>;

export interface AppPluginOptions extends AppContext {
  options?: AppOptions;
}

export function serverOptions(logLevel: string): FastifyServerOptions {
  return {
    // Request lines name the URL without its secrets (order and mail tokens, sign-in codes, addresses).
    logger:
      logLevel === 'silent'
        ? false
        : { level: logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'], serializers: { req: requestLogFields } },
    // genReqId reads the header itself, so an ill-formed id is replaced rather than trusted.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // Start-up work (finding ffmpeg, the storage sweep, the catalogue) may take more than
    // Fastify's 10 s on a busy machine or when several processes start at once.
    pluginTimeout: 120_000,
    trustProxy: false,
    routerOptions: { maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  };
}

async function framemerch(fastify: FastifyInstance, ctx: AppPluginOptions) {
  const background: BackgroundLoops = { jobs: true, mail: true, payments: true, printShop: true, ...ctx.options };
  await fastify.register(errors);
  await fastify.register(context, { ...ctx, background });
  await fastify.register(canonicalHost);
  await fastify.register(security, {
    https: ctx.config.publicUrl.startsWith('https:'),
    mediaOrigin: ctx.config.s3 ? new URL(ctx.config.s3.publicUrl).origin : null,
  });
  await fastify.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await fastify.register(docs);
  await fastify.register(auth);
  await fastify.register(mail, { transport: openMailTransport(ctx.config) });
  await fastify.register(identity);
  await fastify.register(media);
  await fastify.register(payments);
  await fastify.register(fulfilment);
  await fastify.register(jobs);
  await fastify.register(healthRoutes);
  await fastify.register(clockRoutes);
  await fastify.register(videoRoutes);
  await fastify.register(catalogueRoutes);
  await fastify.register(mediaRoutes);
  await fastify.register(accountRoutes);
  await fastify.register(mailRoutes);
  await fastify.register(channelRoutes);
  await fastify.register(captureRoutes);
  await fastify.register(printRoutes);
  await fastify.register(productRoutes);
  await fastify.register(checkoutRoutes);
  await fastify.register(embeddedPayRoutes);
  await fastify.register(webhookRoutes);
  await fastify.register(reconcileRoutes);
  await fastify.register(analyticsRoutes);
  await fastify.register(payoutRoutes);
  await fastify.register(subscriptionRoutes);
  await fastify.register(adminRoutes, { deleteAccount });
  await fastify.register(settingsRoutes);
  await fastify.register(fulfilmentWebhookRoutes);
  await fastify.register(web, { dist: ctx.config.webDist });
}

/** Not encapsulated, so the decorators (db, storage, readCache...) are visible to whoever registers it. */
export const app = fp(framemerch, { name: 'framemerch' });

/** Builds a ready app around the given context. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}, server: FastifyServerOptions = serverOptions(ctx.config.logLevel)) {
  const fastify = Fastify(server).withTypeProvider<TypeBoxTypeProvider>();
  await fastify.register(app, { ...ctx, options });
  await fastify.ready();
  return fastify;
}
