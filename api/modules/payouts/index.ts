/**
 * The payouts module as others see it: its routes, the reads the payout run needs (a creator's
 * setup, and their bank account opened for the transfer), the monthly run, and
 * applyPayoutEvent for the providers' webhooks.
 */
// The routes and the monthly run's job, sending through app.payoutProviders (registered here when app.ts has not).
export { default as payoutRoutes, type PayoutsPluginOptions } from './plugin.ts';
export {
  applyPayoutEvent,
  ensurePayoutSchedule,
  recordPayoutOutcome,
  runPayouts,
  schedulePayoutRun,
  type ApplyEventResult,
  type PayoutOutcomeDeps,
  type PayoutRunDeps,
  type PayoutRunSummary,
  type ProviderFor,
} from './run.ts';
export { payoutIdempotencyKey, periodOfMonth, periodCutoff, nextPeriod, periodAt, type Period } from './run-rules.ts';
export { bankAccountOf, payoutSetupOf, type Opener, type Sealer } from './service.ts';
