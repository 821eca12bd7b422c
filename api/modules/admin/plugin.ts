/** The admin module in the app: the admin portal's routes (dashboard, users, admin log). */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import routes, { type AdminRoutesOptions } from './routes.ts';

export type AdminPluginOptions = AdminRoutesOptions;

const admin: FastifyPluginAsync<AdminPluginOptions> = async (app, opts) => {
  await app.register(routes, opts);
};

export default fp(admin, { name: 'admin', dependencies: ['context', 'auth'] });
