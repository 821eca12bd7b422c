/**
 * The monthly payout run at scale: 10,000 creators with payouts on and a PayPal email, and
 * 1,000,000 earning records spread over them (sales and some reversals, most before the
 * period's cut-off and a few after it), then one run of the period, in this process, through a
 * fake provider that answers 'processing' at once (as the tests' fake does). The process's RSS
 * is sampled every 50 ms during the run; the figure is the peak minus the RSS just before it
 * (after a garbage collection), and the run must keep that growth under 200 MB: it works in
 * batches of creators, never holding every creator or earning at once.
 *
 * Each database is benched in its own child process, so one's memory does not weigh on the
 * other's figures: PostgreSQL (a scratch database made on the server and dropped) and PGlite
 * (a temporary data directory). On PGlite the database itself runs inside the process, so its
 * memory is part of the figure; on PostgreSQL it is the server's, not counted.
 *
 *   npm run bench:payouts                         both databases, full size
 *   BENCH_DB=pglite npm run bench:payouts         one of them (in this process)
 *   BENCH_CREATORS=2000 BENCH_EARNINGS=200000     smaller
 *   BENCH_DATABASE_URL=postgres://...             the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 *
 * Exit status 1 when a run grows the RSS by 200 MB or more, or pays other than expected.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { PayoutProvider, PayoutRequest, PayoutSubmission } from '../api/integrations/payouts/index.ts';
import { periodCutoff, runPayouts, type PayoutRunSummary } from '../api/modules/payouts/index.ts';
import { createScratchDatabase, openDatabase, type Database } from '../api/platform/db/database.ts';
import { migrate } from '../api/platform/db/migrate.ts';
import type { DB } from '../api/platform/db/schema.ts';

type Kind = 'pglite' | 'postgres';

const CREATORS = Number(process.env.BENCH_CREATORS ?? 10_000);
const EARNINGS = Number(process.env.BENCH_EARNINGS ?? 1_000_000);
const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The run of 1 March 2026 pays the earnings made before it. */
const PERIOD = '2026-03-01';
const LIMIT_MB = 200;
const SAMPLE_MS = 50;
/** Earning rows written per INSERT ... SELECT generate_series. */
const CHUNK = 100_000;

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);
const secs = (ms: number) => (ms / 1000).toFixed(1);
const int = (n: number) => n.toLocaleString('en-US');

/** A garbage collection before the baseline, so garbage of the set-up is not counted as the run's. */
const gc: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Answers 'processing' at once, as the tests' fake does; keeps only a count (its memory is not the run's). */
class ProcessingProvider implements PayoutProvider {
  readonly kind = 'embedded' as const;
  readonly method = 'paypal' as const;
  submitted = 0;
  submit(request: PayoutRequest): Promise<PayoutSubmission> {
    this.submitted++;
    return Promise.resolve({ providerReference: `bench_${request.payoutId}`, status: 'processing' });
  }
}

const count = async (db: Kysely<DB>, query: string): Promise<number> => {
  const r = await sql<{ n: number | string | null }>`${sql.raw(query)}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
};

/**
 * Creators 1..C: payouts on, PayPal with an email; every 20th has a threshold no balance reaches
 * (looked at, not paid). Earning g goes to creator (g mod C) + 1 in round r = g div C: every
 * 20th round (r mod 20 = 7) a reversal, every 50th (r mod 50 = 3) dated after the cut-off (kept
 * for the next period); the others are sales in the 30 days before it. Then the users' totals
 * are set as the earnings module keeps them: total = sum of all records, pending = sum of those
 * no payout holds (all of them, before the run).
 */
async function setUp(db: Kysely<DB>, log: (line: string) => void): Promise<void> {
  const cutoff = periodCutoff(PERIOD).toISOString();
  await sql`
    insert into users (email, email_verified, username, display_name, role,
                       payout_enabled, preferred_payment_method, paypal_email, payout_threshold_cents)
    select 'bench-creator-' || n || '@example.com', true, 'benchcreator' || n, 'Bench Creator ' || n, 'creator',
           true, 'paypal', 'paypal-' || n || '@example.com', case when n % 20 = 0 then 100000000 else 5000 end
    from generate_series(1, ${CREATORS}::int) as n`.execute(db);
  await sql`create table bench_creators (n int primary key, id uuid not null)`.execute(db);
  await sql`
    insert into bench_creators (n, id)
    select substring(username from 13)::int, id from users where username like 'benchcreator%'`.execute(db);
  for (let from = 0; from < EARNINGS; from += CHUNK) {
    const to = Math.min(EARNINGS, from + CHUNK) - 1;
    const started = performance.now();
    await sql`
      insert into earnings (user_id, order_item_id, kind, amount_cents, margin_cents, creator_share_cents, source, created_at)
      select c.id, null, e.kind,
             case when e.kind = 'sale' then e.margin + 1500 else -(e.margin + 1500) end,
             case when e.kind = 'sale' then e.margin else -e.margin end,
             case when e.kind = 'sale' then (e.margin * 70) / 100 else -((e.margin * 70) / 100) end,
             case when e.kind = 'sale' then 'Product Sale' else 'Refund' end,
             case when e.r % 50 = 3 then ${cutoff}::timestamptz + (e.g % 2500000) * interval '1 second'
                  else ${cutoff}::timestamptz - ((e.g % 2500000) + 1) * interval '1 second' end
      from (
        select g, g / ${CREATORS}::int as r, (g % ${CREATORS}::int) + 1 as n, 200 + (g::bigint * 7919) % 1800 as margin,
               case when (g / ${CREATORS}::int) % 20 = 7 then 'reversal' else 'sale' end as kind
        from generate_series(${from}::int, ${to}::int) as g
      ) e
      join bench_creators c on c.n = e.n`.execute(db);
    log(`    earnings ${int(to + 1)} of ${int(EARNINGS)} (${secs(performance.now() - started)} s)`);
  }
  await sql`
    update users u set total_earnings_cents = s.cents, pending_payout_cents = s.cents
    from (select user_id, sum(creator_share_cents) as cents from earnings group by user_id) s
    where u.id = s.user_id`.execute(db);
  await sql`analyze`.execute(db);
}

interface Expected {
  payouts: number;
  cents: number;
}

/** What the run should pay: each creator whose balance before the cut-off reaches their threshold and PayPal's minimum. */
async function expected(db: Kysely<DB>): Promise<Expected> {
  const cutoff = periodCutoff(PERIOD).toISOString();
  const r = await sql<{ payouts: number; cents: number | null }>`
    select count(*)::int as payouts, sum(s.cents)::bigint as cents
    from (select e.user_id, sum(e.creator_share_cents) as cents from earnings e
          where e.payout_id is null and e.created_at < ${cutoff}::timestamptz group by e.user_id) s
    join users u on u.id = s.user_id
    where s.cents >= greatest(u.payout_threshold_cents, (select min_payout_cents from payment_method_options where method_name = 'paypal'))`.execute(db);
  return { payouts: Number(r.rows[0]!.payouts), cents: Number(r.rows[0]!.cents ?? 0) };
}

interface Outcome {
  kind: Kind;
  creators: number;
  earnings: number;
  setUpMs: number;
  runMs: number;
  baseRss: number;
  peakRss: number;
  summary: PayoutRunSummary;
  submitted: number;
  payouts: number;
  processing: number;
  paidCents: number;
  heldRows: number;
  pendingLeft: number;
  pendingExpected: number;
  expected: Expected;
}

async function bench(kind: Kind, log: (line: string) => void): Promise<Outcome> {
  const dataDir = kind === 'pglite' ? await mkdtemp(path.join(os.tmpdir(), 'framemerch-bench-payouts-')) : null;
  const scratch = kind === 'postgres' ? await createScratchDatabase(PG_BASE, 'framemerch_bench_payouts') : null;
  let database: Database | null = null;
  try {
    database = await openDatabase(scratch ? { url: scratch.url } : { dataDir: dataDir! });
    const db = database.db;
    const setUpStarted = performance.now();
    await migrate(db);
    log(`  setting up ${int(CREATORS)} creators and ${int(EARNINGS)} earnings`);
    await setUp(db, log);
    const setUpMs = performance.now() - setUpStarted;
    const earnings = await count(db, 'select count(*) as n from earnings');
    const creators = await count(db, "select count(*) as n from users where payout_enabled and paypal_email is not null");
    const want = await expected(db);

    const provider = new ProcessingProvider();
    const now = new Date(periodCutoff(PERIOD).getTime() + 3_600_000);
    gc();
    await new Promise((r) => setTimeout(r, 200));
    const baseRss = process.memoryUsage.rss();
    let peakRss = baseRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }, SAMPLE_MS);
    const started = performance.now();
    let summary: PayoutRunSummary;
    try {
      summary = await runPayouts(
        {
          db,
          opener: {
            open: () => {
              throw new Error('the bench pays by PayPal only');
            },
          },
          providerFor: (method) => (method === 'paypal' ? provider : undefined),
          now: () => now,
        },
        PERIOD,
      );
    } finally {
      clearInterval(sampler);
    }
    const runMs = performance.now() - started;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());

    return {
      kind,
      creators,
      earnings,
      setUpMs,
      runMs,
      baseRss,
      peakRss,
      summary,
      submitted: provider.submitted,
      payouts: await count(db, `select count(*) as n from payouts where period = '${PERIOD}'`),
      processing: await count(db, `select count(*) as n from payouts where period = '${PERIOD}' and status = 'processing'`),
      paidCents: await count(db, `select sum(amount_cents) as n from payouts where period = '${PERIOD}'`),
      heldRows: await count(db, 'select count(*) as n from earnings where payout_id is not null'),
      pendingLeft: await count(db, 'select sum(pending_payout_cents) as n from users'),
      pendingExpected: await count(db, 'select sum(creator_share_cents) as n from earnings where payout_id is null'),
      expected: want,
    };
  } finally {
    await database?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

function report(r: Outcome): boolean {
  const growth = r.peakRss - r.baseRss;
  const memoryOk = growth < LIMIT_MB * MB;
  const paysOk =
    r.payouts === r.expected.payouts &&
    r.summary.created === r.expected.payouts &&
    r.paidCents === r.expected.cents &&
    r.processing === r.payouts &&
    r.submitted === r.payouts &&
    r.summary.errors === 0 &&
    r.pendingLeft === r.pendingExpected;
  const label = r.kind === 'pglite' ? 'PGlite (in this process: its memory counts)' : 'PostgreSQL (server memory not counted)';
  console.log(`\n${label}`);
  console.log(`  earning rows                 ${int(r.earnings)} over ${int(r.creators)} creators (set up in ${secs(r.setUpMs)} s)`);
  console.log(
    `  creators paid                ${int(r.summary.created)} (expected ${int(r.expected.payouts)}); ` +
      `${int(r.creators - r.summary.created)} not paid (below their threshold; ${int(r.summary.skipped)} of them turned down under the lock)`,
  );
  console.log(`  payouts created              ${int(r.payouts)}, ${int(r.processing)} processing, $${(r.paidCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} (expected $${(r.expected.cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })})`);
  console.log(`  earnings handed to payouts   ${int(r.heldRows)}; pending balances left ${r.pendingLeft === r.pendingExpected ? 'equal' : 'DIFFER from'} the unheld earnings`);
  console.log(`  run time                     ${secs(r.runMs)} s (${((r.summary.created / r.runMs) * 1000).toFixed(0)} payouts/s)`);
  console.log(`  peak RSS growth              ${mb(r.peakRss - r.baseRss)} MB (${mb(r.baseRss)} -> ${mb(r.peakRss)} MB, sampled every ${SAMPLE_MS} ms)`);
  console.log(`  RSS growth < ${LIMIT_MB} MB           ${memoryOk ? 'PASS' : 'FAIL'}`);
  console.log(`  paid as expected             ${paysOk ? 'PASS' : 'FAIL'}`);
  return memoryOk && paysOk;
}

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Benches one database in this process; answers whether it passed. */
async function benchOne(kind: Kind): Promise<boolean> {
  if (kind === 'postgres') {
    const why = await postgresReachable();
    if (why) {
      console.log(`\nPostgreSQL\n  skipped: ${PG_BASE} is not reachable (${why})`);
      return true;
    }
  }
  const r = await bench(kind, (line) => console.log(line));
  return report(r);
}

/** Benches one database in a child process (this script with BENCH_DB set); answers whether it passed. */
function benchInChild(kind: Kind): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!], {
      env: { ...process.env, BENCH_DB: kind, BENCH_CHILD: '1' },
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code === 0));
  });
}

const only = process.env.BENCH_DB as Kind | undefined;
if (only && only !== 'pglite' && only !== 'postgres') throw new Error(`BENCH_DB must be pglite or postgres, not ${only}`);
if (!process.env.BENCH_CHILD) {
  console.log(
    `bench:payouts: ${int(CREATORS)} creators, ${int(EARNINGS)} earning rows, one payout run of ${PERIOD} in-process, ` +
      `fake provider answering 'processing'; RSS sampled every ${SAMPLE_MS} ms`,
  );
}
let ok = true;
for (const kind of only ? [only] : (['postgres', 'pglite'] as const)) {
  ok = (only ? await benchOne(kind) : await benchInChild(kind)) && ok;
}
process.exit(ok ? 0 : 1);
