/**
 * The FrameMerch API as a Fastify plugin. It never listens: server.ts does, and tests drive
 * it through inject(). Technology parts arrive ready-made in the context (see bootstrap.ts).
 */
import compress from '@fastify/compress';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import auth from './platform/http/auth.ts';
import context, { type AppContext } from './platform/http/context.ts';
import docs from './platform/http/docs.ts';
import errors from './platform/http/error-handler.ts';
import fulfilment from './integrations/printful/plugin.ts';
import identity from './integrations/google-oidc/plugin.ts';
import jobs from './modules/orders/jobs.ts';
import mail from './platform/mail/plugin.ts';
import media from './platform/media/plugin.ts';
import payments from './integrations/stripe/plugin.ts';
import security from './platform/http/security.ts';
import web from './platform/http/web.ts';
import analyticsRoutes from './modules/earnings/routes.ts';
import authRoutes from './modules/accounts/routes.ts';
import captureRoutes from './modules/capture/routes.ts';
import catalogueRoutes from './modules/merch/catalogue.routes.ts';
import channelRoutes from './modules/channels/routes.ts';
import checkoutRoutes from './modules/checkout/routes.ts';
import creatorRoutes from './modules/channels/creators.routes.ts';
import embeddedPayRoutes from './integrations/stripe/embedded-routes.ts';
import fulfilmentWebhookRoutes from './modules/orders/routes.ts';
import healthRoutes from './platform/http/health.ts';
import mailRoutes from './modules/mail/routes.ts';
import mediaRoutes from './platform/storage/media-routes.ts';
import printRoutes from './modules/merch/print.routes.ts';
import productRoutes from './modules/merch/routes.ts';
import studioRoutes from './modules/videos/studio.routes.ts';
import userRoutes from './modules/accounts/users.routes.ts';
import videoRoutes from './modules/videos/routes.ts';
import webhookRoutes from './modules/checkout/webhooks.routes.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,100}$/;

export function serverOptions(logLevel: string): FastifyServerOptions {
  return {
    logger: logLevel === 'silent' ? false : { level: logLevel, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    // genReqId reads the header itself, so an ill-formed id is replaced rather than trusted.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    routerOptions: { maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  };
}

async function framemerch(fastify: FastifyInstance, ctx: AppContext) {
  await fastify.register(errors);
  await fastify.register(context, ctx);
  await fastify.register(security, { https: ctx.config.publicUrl.startsWith('https:') });
  await fastify.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await fastify.register(docs);
  await fastify.register(auth);
  await fastify.register(mail);
  await fastify.register(identity);
  await fastify.register(media);
  await fastify.register(payments);
  await fastify.register(fulfilment);
  await fastify.register(jobs);
  await fastify.register(healthRoutes);
  await fastify.register(videoRoutes);
  await fastify.register(creatorRoutes);
  await fastify.register(catalogueRoutes);
  await fastify.register(mediaRoutes);
  await fastify.register(authRoutes);
  await fastify.register(userRoutes);
  await fastify.register(mailRoutes);
  await fastify.register(channelRoutes);
  await fastify.register(studioRoutes);
  await fastify.register(captureRoutes);
  await fastify.register(printRoutes);
  await fastify.register(productRoutes);
  await fastify.register(checkoutRoutes);
  await fastify.register(embeddedPayRoutes);
  await fastify.register(webhookRoutes);
  await fastify.register(analyticsRoutes);
  await fastify.register(fulfilmentWebhookRoutes);
  await fastify.register(web, { dist: ctx.config.webDist });
}

/** Not encapsulated, so the decorators (db, storage, readCache...) are visible to whoever registers it. */
export const app = fp(framemerch, { name: 'framemerch' });

/** Builds a ready app around the given context. */
export async function buildApp(ctx: AppContext, options: FastifyServerOptions = serverOptions(ctx.config.logLevel)) {
  const fastify = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  await fastify.register(app, ctx);
  await fastify.ready();
  return fastify;
}
