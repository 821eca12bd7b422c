/** The subscriptions module in the app: its routes and the admin portal's list (the payment webhook calls index.ts's applySubscriptionPaymentEvent). */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import adminRoutes from './admin.routes.ts';
import routes, { type SubscriptionRoutesOptions } from './routes.ts';

export type SubscriptionsPluginOptions = SubscriptionRoutesOptions;

const subscriptions: FastifyPluginAsync<SubscriptionsPluginOptions> = async (app, opts) => {
  await app.register(routes, opts);
  await app.register(adminRoutes);
};

export default fp(subscriptions, { name: 'subscriptions', dependencies: ['context', 'payments'] });
