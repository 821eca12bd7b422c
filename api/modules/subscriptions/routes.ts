/**
 * The subscription routes: HTTP only; the rules and transactions are service.ts's. Replies about
 * a user's own subscription are never stored by a cache. The payment provider is read from
 * app.payments at each request (tests may swap it).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  activateSubscriptionRoute,
  manageSubscriptionRoute,
  mySubscriptionRoute,
  subscriptionCheckoutRoute,
  userSubscriptionRoute,
  verifySubscriptionRoute,
} from '../../../shared/schemas/subscriptions.ts';
import { activateFromSession, manageUrl, mySubscription, publicSubscription, startCheckout, verifySession, type SubscriptionDeps } from './service.ts';

export interface SubscriptionRoutesOptions {
  /** The app's clock by default. */
  now?: () => Date;
}

const routes: FastifyPluginAsyncTypebox<SubscriptionRoutesOptions> = async (app, opts) => {
  const now = opts.now ?? (() => app.clock.now());
  const deps = (log: SubscriptionDeps['log']): SubscriptionDeps => ({ db: app.db, payments: app.payments, publicUrl: app.config.publicUrl, now, log });

  app.route({
    ...subscriptionCheckoutRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return startCheckout(deps(request.log), request.user!.id);
    },
  });

  app.route({
    ...activateSubscriptionRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { success: true as const, subscription: await activateFromSession(deps(request.log), request.user!.id, request.body.session_id) };
    },
  });

  app.route({
    ...verifySubscriptionRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return verifySession(deps(request.log), request.user!.id, request.params.sessionId);
    },
  });

  app.route({
    ...mySubscriptionRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { success: true as const, subscription: await mySubscription(deps(request.log), request.user!.id) };
    },
  });

  app.route({
    ...manageSubscriptionRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return manageUrl(deps(request.log), request.user!.id);
    },
  });

  app.route({
    ...userSubscriptionRoute,
    handler: async (request, reply) => {
      // Public, but it changes with the creator's billing: not kept by shared caches for long.
      void reply.header('cache-control', 'no-cache');
      return publicSubscription(deps(request.log), request.params.username);
    },
  });
};

export default routes;
