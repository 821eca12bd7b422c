/**
 * Runs the payouts of a period now, as the job of that month's 1st would:
 *
 *   npm run payouts:run -- --period 2026-11     the run of 1 November 2026 (UTC): pays the earnings made before it
 *
 * Reads the same configuration as the server (DATA_DIR, DATABASE_URL, PAYOUT_ENCRYPTION_KEYS).
 * Safe to run again, after a crash, or beside the server's own run: each creator is paid once
 * per period (one payout row per creator and period, and the providers' idempotency keys).
 * Payouts go through the configured providers (PayPal, Stripe Connect, NACHA, else the embedded
 * payout provider, whose payouts the server then settles and reports on its webhooks).
 * On the embedded database stop the server first (one process opens it). Prints what the run
 * did; exit status 1 when some payouts could not be submitted (run it again later), 2 for a
 * wrong argument or a month whose 1st has not come.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { databaseTarget } from '../api/bootstrap.ts';
import { embeddedPayoutSecrets, openPayoutProviders } from '../api/integrations/payouts/index.ts';
import { runPayouts, periodOfMonth, type ProviderFor } from '../api/modules/payouts/index.ts';
import { ConfigError, loadConfig } from '../api/platform/config/config.ts';
import { openSealedValues } from '../api/platform/crypto/key-file.ts';
import { openDatabase } from '../api/platform/db/database.ts';
import { migrate } from '../api/platform/db/migrate.ts';
import { AppError } from '../api/platform/http/errors.ts';

const USAGE = 'Usage: npm run payouts:run -- --period YYYY-MM';

export interface PayoutsRunCommandOptions {
  /** The providers by method; by default the configured ones (integrations/payouts), as the server uses them. */
  providerFor?: ProviderFor;
  /** Each step of the run, one line (no bank numbers, no addresses). */
  log?: (line: string) => void;
  out?: (line: string) => void;
  now?: () => Date;
}

/** The command; answers its exit status. */
export async function payoutsRunCommand(argv: string[], options: PayoutsRunCommandOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => console.log(line));
  const { values } = parseArgs({ args: argv, options: { period: { type: 'string' }, help: { type: 'boolean', default: false } }, strict: true });
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const period = values.period === undefined ? undefined : periodOfMonth(values.period);
  if (!period || values.period!.length !== 7) {
    console.error(`--period must be a month as YYYY-MM.\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const sealedValues = await openSealedValues(config);
  const database = await openDatabase(databaseTarget(config));
  try {
    await migrate(database.db);
    const run = await runPayouts(
      {
        db: database.db,
        opener: sealedValues,
        providerFor:
          options.providerFor ??
          // The embedded provider keeps its payouts in the database: the server's loop settles them and reports to its webhooks.
          openPayoutProviders(config, { db: database.db, sealer: sealedValues, embedded: await embeddedPayoutSecrets(database.db) }),
        publicUrl: config.publicUrl,
        now: options.now,
        log: options.log,
      },
      period,
      { requireDue: true },
    );
    out(
      `Payout run ${period} (earnings made before ${period}): ${run.created} payout(s) made, ${run.skipped} creator(s) not paid this time; ` +
        `${run.submitted} submitted (${run.paid} paid, ${run.processing} processing, ${run.failed} failed), ` +
        `${run.waiting} waiting for a provider, ${run.errors} not submitted.`,
    );
    return run.errors > 0 ? 1 : 0;
  } catch (err) {
    if (err instanceof AppError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  payoutsRunCommand(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error && !process.env.DEBUG ? err.message : err);
      process.exit(1);
    },
  );
}
