/**
 * The payouts module in the app: its routes (methods, setup, portal, webhooks, the admin's run,
 * NACHA file, runs and payouts lists and retry)
 * and the monthly run's job. Payouts are sent through app.payoutProviders (integrations/payouts:
 * PayPal, Stripe Connect and NACHA where configured, else the embedded payout provider). When
 * the composition root has not registered them, this plugin does, before the routes, so the
 * run, the webhooks and the embedded provider's clock share one set. `providerFor` replaces
 * them (tests).
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { payoutProvidersPlugin } from '../../integrations/payouts/index.ts';
import achRoutes from './ach.routes.ts';
import adminRoutes from './admin.routes.ts';
import { registerPayoutJobs } from './jobs.ts';
import routes from './routes.ts';
import runRoutes from './run.routes.ts';
import { applyPayoutEvent, type PayoutRunDeps, type ProviderFor } from './run.ts';

export interface PayoutsPluginOptions {
  providerFor?: ProviderFor;
  /** A clock of the test's own; app.clock (the system's, or the TEST_CLOCK an admin moves) by default. */
  now?: () => Date;
}

const payouts: FastifyPluginAsync<PayoutsPluginOptions> = async (app, opts) => {
  const now = opts.now ?? (() => app.clock.now());
  const outcomes = { db: app.db, publicUrl: app.config.publicUrl, now, log: (line: string) => app.log.debug(line) };
  if (!opts.providerFor && !app.hasDecorator('payoutProviders')) {
    await app.register(payoutProvidersPlugin, { applyAchEvent: (event) => applyPayoutEvent(outcomes, event), now });
  }
  const deps: PayoutRunDeps = {
    ...outcomes,
    opener: app.sealedValues,
    providerFor: opts.providerFor ?? ((method) => app.payoutProviders(method)),
  };
  registerPayoutJobs(app, deps);
  await app.register(routes, { now });
  await app.register(runRoutes, { deps });
  await app.register(achRoutes, { deps, origin: app.config.nacha });
  await app.register(adminRoutes, { deps });
};

/** Not encapsulated: app.payoutProviders, when this plugin registers it, is the app's. */
export default fp(payouts, { name: 'payouts', dependencies: ['context', 'jobs'] });
