/** Earnings: the creators' share of each sale (credited when paid, reversed when refunded) and their sales analytics. */
export { default as analyticsRoutes } from './routes.ts';
export { creditOrderEarnings, reverseOrderEarnings, lineEarning } from './service.ts';
export { latestLedger, ledgerBalance, ledgerBetween, type LedgerBalance, type LedgerEntry } from './ledger.ts';
