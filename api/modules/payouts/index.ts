/**
 * The payouts module as others see it: its routes, and the reads the payout run will need (a
 * creator's setup, and their bank account opened for the transfer).
 */
export { default as payoutRoutes } from './routes.ts';
export { bankAccountOf, payoutSetupOf, type Opener, type Sealer } from './service.ts';
