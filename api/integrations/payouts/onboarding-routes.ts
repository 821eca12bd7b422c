/**
 * The embedded provider's Stripe Connect onboarding page (/pay/connect/:token): the page, its
 * form post, and its stylesheet. Form bodies are parsed here only (this plugin is encapsulated).
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { connectOnboardingPageRoute, connectOnboardingSubmitRoute } from '../../../shared/schemas/payouts.ts';
import { CONNECT_ONBOARDING_PATH, type EmbeddedPayouts } from './embedded.ts';
import { CONNECT_STYLESHEET, CONNECT_STYLESHEET_PATH, notFoundPage, onboardingPage } from './onboarding-page.ts';

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(body);

const onboardingRoutes: FastifyPluginAsyncTypebox<{ embedded: EmbeddedPayouts }> = async (app, { embedded }) => {
  await app.register(formbody, { bodyLimit: 4 * 1024 });

  app.get(CONNECT_STYLESHEET_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/css; charset=utf-8').send(CONNECT_STYLESHEET),
  );

  app.route({
    ...connectOnboardingPageRoute,
    handler: async (request, reply) => {
      const token = request.params.token;
      const account = TOKEN.test(token) ? await embedded.connectAccountByToken(token) : undefined;
      if (!account) return html(reply, 404, notFoundPage());
      return html(reply, 200, onboardingPage(account, `${CONNECT_ONBOARDING_PATH}/${token}`));
    },
  });

  app.route({
    ...connectOnboardingSubmitRoute,
    attachValidation: true,
    handler: async (request, reply) => {
      const token = request.params.token;
      if (!TOKEN.test(token)) return html(reply, 404, notFoundPage());
      const decision = request.validationError ? undefined : request.body?.decision;
      if (decision !== 'complete' && decision !== 'incomplete') {
        const account = await embedded.connectAccountByToken(token);
        return account ? html(reply, 400, onboardingPage(account, `${CONNECT_ONBOARDING_PATH}/${token}`)) : html(reply, 404, notFoundPage());
      }
      const outcome = await embedded.finishOnboarding(token, decision);
      if (outcome.kind === 'not_found') return html(reply, 404, notFoundPage());
      return reply.header('cache-control', 'no-store').redirect(outcome.account.return_url, 303);
    },
  });
};

export default onboardingRoutes;
