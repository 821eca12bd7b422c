/** The subscriptions module in the app: its routes (the payment webhook calls index.ts's applySubscriptionPaymentEvent). */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import routes, { type SubscriptionRoutesOptions } from './routes.ts';

export type SubscriptionsPluginOptions = SubscriptionRoutesOptions;

const subscriptions: FastifyPluginAsync<SubscriptionsPluginOptions> = async (app, opts) => {
  await app.register(routes, opts);
};

export default fp(subscriptions, { name: 'subscriptions', dependencies: ['context', 'payments'] });
