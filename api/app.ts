/**
 * The FrameMerch API as a Fastify plugin. It never listens: server.ts does, and tests drive
 * it through inject(). Technology parts arrive ready-made in the context (see bootstrap.ts).
 */
import compress from '@fastify/compress';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import auth from './plugins/auth.ts';
import context, { type AppContext } from './plugins/context.ts';
import docs from './plugins/docs.ts';
import errors from './plugins/errors.ts';
import fulfilment from './plugins/fulfilment.ts';
import identity from './plugins/identity.ts';
import jobs from './plugins/jobs.ts';
import mail from './plugins/mail.ts';
import media from './plugins/media.ts';
import payments from './plugins/payments.ts';
import security from './plugins/security.ts';
import web from './plugins/web.ts';
import analyticsRoutes from './routes/analytics.ts';
import authRoutes from './routes/auth.ts';
import captureRoutes from './routes/capture.ts';
import catalogueRoutes from './routes/catalogue.ts';
import channelRoutes from './routes/channels.ts';
import checkoutRoutes from './routes/checkout.ts';
import creatorRoutes from './routes/creators.ts';
import embeddedPayRoutes from './routes/embedded-pay.ts';
import fulfilmentWebhookRoutes from './routes/fulfilment-webhooks.ts';
import healthRoutes from './routes/health.ts';
import mailRoutes from './routes/mail.ts';
import mediaRoutes from './routes/media.ts';
import printRoutes from './routes/print.ts';
import productRoutes from './routes/products.ts';
import studioRoutes from './routes/studio.ts';
import userRoutes from './routes/users.ts';
import videoRoutes from './routes/videos.ts';
import webhookRoutes from './routes/webhooks.ts';

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
