/**
 * `npm run payouts:run` killed with SIGKILL at 10 random points and started again until it
 * finishes: each creator is paid exactly once for the period. The run is a child process
 * (api/test/payouts-run-child.ts: the command with a fake provider that keeps its records in a
 * file, as a real provider would keep them whatever happens to us) on the database the tests use:
 * PostgreSQL with TEST_DATABASE_URL (a fresh database), else PGlite in a data directory.
 * The kill points are chosen among the steps the run prints as it goes (a payout made, about
 * to ask the provider, the provider asked, the provider having taken it, its answer recorded):
 * the child stops after each step until this side lets it go on, so the kill lands right after
 * the chosen step, whatever the machine's speed; two kills come at a random moment of the start
 * instead when that is earlier.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSealedValues } from '../../platform/crypto/key-file.ts';
import { parseKeyList } from '../../platform/crypto/sealed-values.ts';
import { openDatabase, type Database } from '../../platform/db/database.ts';
import { migrate } from '../../platform/db/migrate.ts';
import { freshDatabase, TEST_PAYOUT_KEYS, type TestDatabase } from '../../test/harness.ts';
import { answerFor, readLedger } from '../../test/payouts-run-child.ts';
import { earn, payoutCreator } from '../../test/payout-support.ts';
import { exited } from '../../test/server-process.ts';
import { readCatalogue, syncCatalogue } from '../merch/index.ts';
import { periodAt, periodCutoff } from './run-rules.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHILD = path.join(ROOT, 'api/test/payouts-run-child.ts');
/** Each payout prints 5 lines (made, submitting, asked, took, its answer): 180 in all, more than 10 kills of at most 16 lines can use up. */
const CREATORS = 36;
const KILLS = 10;

let dir = '';
let pgdb: TestDatabase | null = null;

afterAll(async () => {
  await pgdb?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Child {
  child: ChildProcess;
  /** Lines printed so far. */
  lines: string[];
  /** Resolves with the exit code. */
  done: Promise<number | null>;
}

/**
 * Starts the run in step mode: after each line it prints, the child waits for the go-ahead this
 * side sends, except after line `killAt`, where it is killed with SIGKILL instead (Infinity:
 * never, the caller kills it or lets it finish).
 */
function startRun(env: Record<string, string>, period: string, killAt = Infinity): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, '--period', period.slice(0, 7)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'silent', WEB_DIST: 'none', SEED_DEMO: 'false', PAYOUT_CHILD_STEP: '1', ...env },
  });
  child.stdin!.on('error', () => {}); // a killed child's pipe
  const lines: string[] = [];
  let rest = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      if (lines.length >= killAt) child.kill('SIGKILL');
      else if (child.exitCode === null && !child.killed) child.stdin!.write('g');
    }
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const done = exited(child).then((code) => {
    if (code !== 0 && code !== null && stderr) console.error(stderr);
    return code;
  });
  return { child, lines, done };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the payout run killed with SIGKILL and started again', () => {
  it('pays each creator exactly once for the period, and the provider takes each key once', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-payout-kill-'));
    const ledger = path.join(dir, 'provider.jsonl');
    if (process.env.TEST_DATABASE_URL) pgdb = await freshDatabase();
    const open = async (): Promise<Database> => {
      if (pgdb) return pgdb.database;
      const database = await openDatabase({ dataDir: path.join(dir, 'pglite') });
      await migrate(database.db);
      return database;
    };
    const period = periodAt(new Date());
    const before = new Date(periodCutoff(period).getTime() - 5 * 86_400_000);

    // Creators with payouts due, across the three methods.
    let database = await open();
    const sealer = await openSealedValues({ payoutKeys: parseKeyList(TEST_PAYOUT_KEYS).ring, dataDir: dir });
    await syncCatalogue(database.db, await readCatalogue());
    const ids: string[] = [];
    for (let i = 0; i < CREATORS; i++) {
      const id = await payoutCreator(database.db, sealer, { method: (['paypal', 'ach', 'stripe_connect'] as const)[i % 3] });
      await earn(database.db, id, 8000 + 37 * i, before);
      await earn(database.db, id, 500 + i, before);
      ids.push(id);
    }
    if (!pgdb) await database.close();

    const env = { DATA_DIR: dir, DATABASE_URL: pgdb?.url ?? '', PAYOUT_ENCRYPTION_KEYS: TEST_PAYOUT_KEYS, PAYOUT_FAKE_LEDGER: ledger };
    const killedAt: string[] = [];
    for (let k = 0; k < KILLS; k++) {
      // Right after a random step of the run; two of them at a random moment instead, should it come first (the start: opening the database, migrating).
      const atStart = k === 0 || k === 6;
      const run = startRun(env, period, 1 + Math.floor(Math.random() * 16));
      if (atStart) {
        await Promise.race([sleep(200 + Math.random() * 1500), run.done]);
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
      const code = await run.done;
      killedAt.push(code !== null ? 'finished before the kill' : (run.lines.at(-1) ?? '(starting)').replace(/[0-9a-f-]{36}/g, 'U'));
    }
    const last = startRun(env, period);
    expect(await last.done, last.lines.join('\n')).toBe(0);
    console.log(`kills landed after: ${killedAt.map((l) => `\n  ${l}`).join('')}\nthe last run: ${last.lines.at(-1)}`);
    // Every kill fell on work in progress, not after the end.
    expect(killedAt.filter((l) => l === 'finished before the kill')).toEqual([]);

    database = pgdb ? pgdb.database : await open();
    try {
      const payouts = await database.db
        .selectFrom('payouts')
        .select(['id', 'user_id', sql<string>`period::text`.as('period'), 'amount_cents', 'fee_cents', 'status', 'provider_reference'])
        .execute();
      // Exactly one payout per creator, for the period, and none left unsent.
      expect(payouts.map((p) => p.user_id).sort()).toEqual([...ids].sort());
      expect(new Set(payouts.map((p) => p.period))).toEqual(new Set([period]));

      const lines = readLedger(ledger);
      const takes = lines.filter((l) => l.kind === 'take');
      // The provider took each creator's key once, however often it was asked.
      expect(takes.map((l) => l.key).sort()).toEqual(ids.map((id) => `${id}:${period}`).sort());
      const asked = lines.filter((l) => l.kind === 'request').length;
      expect(asked).toBeGreaterThanOrEqual(CREATORS);
      console.log(`provider: ${asked} requests for ${takes.length} keys, each taken once`);

      for (const p of payouts) {
        const key = `${p.user_id}:${period}`;
        const take = takes.find((l) => l.key === key)!;
        expect(p.status, key).toBe(answerFor(key));
        expect(p.provider_reference).toBe(`fake_${key}`);
        expect(take.amountCents).toBe(Number(p.amount_cents) - Number(p.fee_cents));
        // Every request for the key asked for the same payout and amount.
        for (const l of lines.filter((x) => x.key === key)) expect([l.payoutId, l.amountCents]).toEqual([p.id, take.amountCents]);
        const earnings = await database.db.selectFrom('earnings').select(['creator_share_cents', 'payout_id']).where('user_id', '=', p.user_id).execute();
        const earned = earnings.reduce((s, e) => s + Number(e.creator_share_cents), 0);
        const held = earnings.filter((e) => e.payout_id === p.id).reduce((s, e) => s + Number(e.creator_share_cents), 0);
        const user = await database.db.selectFrom('users').select(['pending_payout_cents', 'total_earnings_cents']).where('id', '=', p.user_id!).executeTakeFirstOrThrow();
        if (p.status === 'failed') {
          expect([held, user.pending_payout_cents]).toEqual([0, earned]);
        } else {
          expect([held, Number(p.amount_cents), user.pending_payout_cents]).toEqual([earned, earned, 0]);
        }
        expect(user.total_earnings_cents).toBe(earned);
      }
      // One email per payout that was paid or failed.
      const mails = await database.db.selectFrom('email_outbox').select('dedupe_key').where('template', 'in', ['payout-paid', 'payout-failed']).execute();
      expect(mails.map((m) => m.dedupe_key).sort()).toEqual(
        payouts
          .filter((p) => p.status !== 'processing')
          .map((p) => `payout:${p.id}:${p.status}`)
          .sort(),
      );
    } finally {
      if (!pgdb) await database.close();
    }
  }, 300_000);
});
