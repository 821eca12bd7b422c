/**
 * Bank numbers at rest and on the way out. 100 creators save ACH details through the real server,
 * run as its own process with its most verbose log (LOG_LEVEL=trace): each a distinct random
 * 12 to 17 digit account number and a distinct routing number with a right ABA check digit.
 * Invalid saves carrying numbers of their own are refused along the way (the error paths are
 * where numbers leak). Then no full account or routing number is found, as its ASCII digits
 * (which is also how it reads inside JSON) or as the hex of those digits (a bytea, a \x dump):
 *  - in any reply of the test, headers and body;
 *  - in the server's log (its stdout and stderr);
 *  - in any row of any table of the database, dumped as text, nor in pg_dump's dump on PostgreSQL;
 *  - in the database's files as raw bytes: on PGlite its directory under DATA_DIR, on PostgreSQL
 *    the server's data directory (base/, global/, pg_wal/ ...) after a CHECKPOINT; and in every
 *    other file under the server's DATA_DIR.
 * Each place is searched for a marker known to be there in plain text too (the holder names,
 * stored as given; a query parameter in the log; a request id in the reply headers), so a
 * search that reads nothing cannot pass. The replies show the last 4 digits, and the sealed
 * values in the database open to the numbers: the details really were saved.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_MESSAGES } from '../../shared/schemas/payouts.ts';
import { abaChecksumValid } from '../integrations/payouts/index.ts';
import { createUser } from '../modules/accounts/index.ts';
import { openSealedValues } from '../platform/crypto/key-file.ts';
import { openDatabase, type DatabaseTarget } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { createSession, SESSION_COOKIE } from '../platform/sessions/sessions.ts';
import { freshDatabase, type TestDatabase } from './harness.ts';
import { freePort } from './ports.ts';
import { exited, startServer, waitForHealth } from './server-process.ts';

const CREATORS = 100;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Above this the PostgreSQL data directory is scanned as the test database's base/<oid>, global/ and pg_wal/ only. */
const WHOLE_DATA_DIRECTORY_LIMIT = 2 * 1024 ** 3;

/* ---- The numbers, and the markers that must be found ---- */

const run = randomBytes(6).toString('hex');
/** In every holder name, stored as given: the control for the replies, the dumps and the files. */
const HOLDER_MARK = `HolderMark${run}`;
/** A query parameter of one request: the control for the log. */
const LOG_MARK = `LogMark${run}`;
/** The request id of every request, echoed in x-request-id: the control for the reply headers. */
const HEADER_MARK = `HeaderMark${run}`;

function randomDigits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(randomInt(10));
  return s;
}

/** 8 random digits and the check digit the ABA weights (3, 7, 1) call for. */
function routingNumber(): string {
  const first8 = randomDigits(8);
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce((s, d, i) => s + Number(d) * w[i]!, 0);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

/** The same first 8 digits with another check digit. */
const wrongCheckDigit = (routing: string) => `${routing.slice(0, 8)}${(Number(routing[8]) + 5) % 10}`;

const used = new Set<string>();
function distinct(make: () => string): string {
  for (;;) {
    const v = make();
    if ([...used].some((u) => u.includes(v) || v.includes(u))) continue;
    used.add(v);
    return v;
  }
}
const newRouting = () => distinct(routingNumber);
/** 12 to 17 digits, the first not 0: long and random enough that no chance match is possible. */
const newAccount = () => distinct(() => `${randomInt(1, 10)}${randomDigits(randomInt(11, 17))}`);

interface Bank {
  routing: string;
  account: string;
  holder: string;
  type: 'checking' | 'savings';
}
const banks: Bank[] = Array.from({ length: CREATORS }, (_, i) => ({
  routing: newRouting(),
  account: newAccount(),
  holder: `${HOLDER_MARK} Payee ${i}`,
  type: i % 3 === 0 ? 'savings' : 'checking',
}));
/** The numbers the refused saves carry: never stored, so they must be nowhere either. */
const refusedNumbers = { routing: newRouting(), account: newAccount(), longAccount: distinct(() => `${randomInt(1, 10)}${randomDigits(16)}`) };

/* ---- The search ---- */

/** Every form of every number, by length, to what it is: the ASCII digits and the hex of those digits (itself all digits, 3x3y...). */
const needles = new Map<number, Map<string, string>>();
function addNeedle(digits: string, label: string) {
  for (const [form, text] of [
    ['digits', digits],
    ['hex of the digits', Buffer.from(digits, 'ascii').toString('hex')],
  ] as const) {
    const byText = needles.get(text.length) ?? new Map<string, string>();
    byText.set(text, `${label} (${form})`);
    needles.set(text.length, byText);
  }
}
banks.forEach((b, i) => {
  addNeedle(b.account, `creator ${i}'s account number`);
  addNeedle(b.routing, `creator ${i}'s routing number`);
});
addNeedle(refusedNumbers.routing, 'the refused saves\' routing number');
addNeedle(wrongCheckDigit(refusedNumbers.routing), 'the refused saves\' routing number with a wrong check digit');
addNeedle(refusedNumbers.account, 'the refused saves\' account number');
addNeedle(refusedNumbers.longAccount, 'the refused saves\' 17-digit account number');
const SHORTEST_NEEDLE = Math.min(...needles.keys());
const LONGEST_NEEDLE = Math.max(...needles.keys());
const DIGIT_RUN = new RegExp(`[0-9]{${SHORTEST_NEEDLE},}`, 'g');

interface Leak {
  place: string;
  offset: number;
  what: string;
  context: string;
}

const printable = (s: string) => s.replace(/[^\x20-\x7e]/g, '.');

/** The numbers in a text (a latin1 view of bytes is fine: the digits are ASCII). */
function findNumbers(text: string, place: string, baseOffset = 0): Leak[] {
  const leaks: Leak[] = [];
  for (const m of text.matchAll(DIGIT_RUN)) {
    const runText = m[0];
    for (const [length, byText] of needles) {
      for (let i = 0; i + length <= runText.length; i++) {
        const hit = byText.get(runText.slice(i, i + length));
        if (!hit) continue;
        const at = m.index + i;
        leaks.push({ place, offset: baseOffset + at, what: hit, context: printable(text.slice(Math.max(0, at - 60), at + length + 60)) });
      }
    }
  }
  return leaks;
}

const describeLeaks = (leaks: Leak[]) =>
  leaks
    .slice(0, 20)
    .map((l) => `${l.what} in ${l.place} at ${l.offset}: ...${l.context}...`)
    .join('\n');

interface FileScan {
  files: number;
  bytes: number;
  leaks: Leak[];
  /** Marker -> the files it was found in. */
  found: Map<string, string[]>;
}

/** Reads a file as raw bytes, in slices that overlap by more than the longest thing looked for. */
async function scanFile(file: string, markers: string[], into: FileScan): Promise<void> {
  const overlap = Math.max(LONGEST_NEEDLE, ...markers.map((m) => m.length)) + 8;
  const slice = 8 * 1024 * 1024;
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    // A file PostgreSQL removed while we walked (a temporary stats file, a recycled WAL segment) is no longer anywhere.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new Error(`cannot read ${file} (${(err as Error).message}): the search needs every file of the data directory`);
  }
  try {
    const buf = Buffer.allocUnsafe(overlap + Math.max(1, Math.min(slice, (await handle.stat()).size)));
    /** The file offset of the next read, and how many bytes of the previous read sit at the start of buf. */
    let position = 0;
    let carried = 0;
    const seen = new Set<number>();
    for (;;) {
      const { bytesRead } = await handle.read(buf, carried, buf.length - carried, position);
      if (bytesRead === 0) break;
      const length = carried + bytesRead;
      const text = buf.toString('latin1', 0, length);
      for (const leak of findNumbers(text, file, position - carried)) {
        if (seen.has(leak.offset)) continue;
        seen.add(leak.offset);
        into.leaks.push(leak);
      }
      for (const marker of markers) {
        if (!text.includes(marker)) continue;
        const where = into.found.get(marker) ?? [];
        if (!where.includes(file)) where.push(file);
        into.found.set(marker, where);
      }
      into.bytes += bytesRead;
      position += bytesRead;
      const keep = Math.min(overlap, length);
      buf.copy(buf, 0, length - keep, length);
      carried = keep;
    }
  } finally {
    await handle.close();
  }
  into.files++;
}

/** Every regular file under `root` (symbolic links are not followed). */
async function filesUnder(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`cannot list ${root} (${(err as Error).message}): the search needs every file of the data directory`);
  }
  const out: string[] = [];
  for (const e of entries) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

async function scanFiles(files: string[], markers: string[]): Promise<FileScan> {
  const scan: FileScan = { files: 0, bytes: 0, leaks: [], found: new Map() };
  for (const f of files) await scanFile(f, markers, scan);
  return scan;
}

async function totalSize(files: string[]): Promise<number> {
  let sum = 0;
  for (const f of files) sum += await lstat(f).then((s) => s.size, () => 0);
  return sum;
}

/* ---- The run ---- */

interface Reply {
  what: string;
  status: number;
  headers: string;
  body: string;
}

const replies: Reply[] = [];
const logChunks: Buffer[] = [];
let dataDir = '';
let pgdb: TestDatabase | null = null;
let databaseUrl: string | null = null;
let target: DatabaseTarget;
let port = 0;
let tokens: string[] = [];
let customerToken = '';
let serverExit: number | null = null;

const log = () => Buffer.concat(logChunks).toString('utf8');

async function send(what: string, url: string, init: { method?: string; token?: string | null; origin?: string; body?: string; type?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = { 'x-request-id': `${HEADER_MARK}-${replies.length}` };
  if (init.token) headers.cookie = `${SESSION_COOKIE}=${init.token}`;
  if (init.method && init.method !== 'GET') headers.origin = init.origin ?? `http://127.0.0.1:${port}`;
  if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { method: init.method ?? 'GET', headers, body: init.body });
  const reply: Reply = {
    what,
    status: res.status,
    headers: [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'),
    body: await res.text(),
  };
  replies.push(reply);
  return reply;
}

const achBody = (bank: Omit<Bank, 'type'> & { type: string }) =>
  JSON.stringify({ method: 'ach', routing_number: bank.routing, account_number: bank.account, holder_name: bank.holder, account_type: bank.type });

/** Saves that must be refused (creator 0's, the signed out's, another site's, a customer's), each carrying the refused saves' numbers. */
function refusedSaves(): Array<{ what: string; token: string | null; origin?: string; body: string; type?: string; status: number; code: string; error?: string }> {
  const r = refusedNumbers;
  const holder = 'Refused Holder';
  const good = { routing: r.routing, account: r.account, holder, type: 'checking' };
  const mine = tokens[0]!;
  return [
    { what: 'a routing number with a letter', token: mine, body: achBody({ ...good, routing: `${r.routing}x` }), status: 400, code: 'VALIDATION_FAILED', error: PAYOUT_MESSAGES.routingNumber },
    { what: 'a routing number whose check digit is wrong', token: mine, body: achBody({ ...good, routing: wrongCheckDigit(r.routing) }), status: 400, code: 'VALIDATION_FAILED', error: PAYOUT_MESSAGES.routingNumber },
    { what: 'an 8-digit routing number', token: mine, body: achBody({ ...good, routing: r.routing.slice(0, 8) }), status: 400, code: 'VALIDATION_FAILED', error: PAYOUT_MESSAGES.routingNumber },
    { what: 'an 18-digit account number', token: mine, body: achBody({ ...good, account: `${r.longAccount}7` }), status: 400, code: 'VALIDATION_FAILED', error: PAYOUT_MESSAGES.accountNumber },
    { what: 'an account number with letters', token: mine, body: achBody({ ...good, account: `${r.account}ab` }), status: 400, code: 'VALIDATION_FAILED', error: PAYOUT_MESSAGES.accountNumber },
    { what: 'an account number with a dot', token: mine, body: achBody({ ...good, account: `${r.account.slice(0, 6)}.${r.account.slice(6)}` }), status: 400, code: 'VALIDATION_FAILED', error: PAYOUT_MESSAGES.accountNumber },
    { what: 'a blank holder name', token: mine, body: achBody({ ...good, holder: '  ' }), status: 400, code: 'VALIDATION_FAILED', error: PAYOUT_MESSAGES.holderName },
    { what: 'an unknown account type (schema validation)', token: mine, body: achBody({ ...good, type: 'business' }), status: 400, code: 'VALIDATION_FAILED' },
    { what: 'an account number over the schema length', token: mine, body: achBody({ ...good, account: `${r.account}${'0'.repeat(60)}` }), status: 400, code: 'VALIDATION_FAILED' },
    { what: 'malformed JSON around the account number', token: mine, body: `{"method":"ach","routing_number":"${r.routing}","account_number":${r.account}x,"holder_name":"${holder}"}`, status: 400, code: 'MALFORMED_REQUEST' },
    { what: 'JSON cut off after the account number', token: mine, body: `{"method":"ach","routing_number":"${r.routing}","account_number":"${r.account}`, status: 400, code: 'MALFORMED_REQUEST' },
    { what: 'a text/plain body', token: mine, body: achBody(good), type: 'text/plain', status: 400, code: 'VALIDATION_FAILED' },
    { what: 'an application/xml body', token: mine, body: achBody(good), type: 'application/xml', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
    { what: 'a body over the size limit', token: mine, body: JSON.stringify({ method: 'ach', routing_number: r.routing, account_number: r.account, holder_name: holder, account_type: 'checking', pad: 'x'.repeat(1024 * 1024 + 10) }), status: 413, code: 'PAYLOAD_TOO_LARGE' },
    { what: 'signed out', token: null, body: achBody(good), status: 401, code: 'UNAUTHENTICATED' },
    { what: 'from another site', token: mine, origin: 'https://elsewhere.example', body: achBody(good), status: 403, code: 'FORBIDDEN' },
    { what: 'a customer', token: customerToken, body: achBody(good), status: 403, code: 'FORBIDDEN' },
  ];
}

const refusedResults: Array<{ what: string; expected: { status: number; code: string; error?: string }; reply: Reply }> = [];

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await pgdb?.drop();
});

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-bank-at-rest-'));
  if (onPostgres) {
    pgdb = await freshDatabase();
    await pgdb.database.close();
    databaseUrl = pgdb.url;
  }
  target = databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'pglite') };

  // The creators and their sessions, made before the server holds the database (as the API tests sign in).
  const setup = await openDatabase(target);
  try {
    await migrate(setup.db);
    tokens = [];
    for (let i = 0; i < CREATORS; i++) {
      const user = await createUser(setup.db, { email: `payee-${i}-${run}@example.com`, displayName: `Payee ${i}`, role: 'creator', emailVerified: true });
      tokens.push((await createSession(setup.db, user.id, 1, {})).token);
    }
    const customer = await createUser(setup.db, { email: `shopper-${run}@example.com`, displayName: 'Shopper', role: 'customer', emailVerified: true });
    customerToken = (await createSession(setup.db, customer.id, 1, {})).token;
  } finally {
    await setup.close();
  }

  port = await freePort();
  const child = startServer(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      DATABASE_URL: databaseUrl ?? '',
      // The most verbose level the server accepts.
      LOG_LEVEL: 'trace',
      // The key file under DATA_DIR, as a server without PAYOUT_ENCRYPTION_KEYS makes it.
      PAYOUT_ENCRYPTION_KEYS: '',
    },
    { output: 'pipe' },
  );
  child.stdout!.on('data', (c: Buffer) => logChunks.push(c));
  child.stderr!.on('data', (c: Buffer) => logChunks.push(c));
  try {
    await waitForHealth(port, child);

    // 100 saves, ten at a time, then each creator's setup and portal.
    for (let from = 0; from < CREATORS; from += 10) {
      await Promise.all(
        banks.slice(from, from + 10).map((b, k) => send(`PUT /api/payouts/method (creator ${from + k})`, '/api/payouts/method', { method: 'PUT', token: tokens[from + k]!, body: achBody(b) })),
      );
    }
    const month = new Date().toISOString().slice(0, 7);
    for (let i = 0; i < CREATORS; i++) {
      await send(`GET /api/payouts/setup (creator ${i})`, '/api/payouts/setup', { token: tokens[i]! });
      await send(`GET /api/payouts/portal (creator ${i})`, '/api/payouts/portal', { token: tokens[i]! });
    }
    await send('GET /api/payouts/statement (creator 0)', `/api/payouts/statement?month=${month}`, { token: tokens[0]! });

    // The refused saves: creator 0 (and the signed out, another site, a customer) with numbers that are never stored.
    for (const r of refusedSaves()) {
      const reply = await send(`PUT /api/payouts/method: ${r.what}`, '/api/payouts/method', { method: 'PUT', token: r.token, origin: r.origin, body: r.body, type: r.type });
      refusedResults.push({ what: r.what, expected: { status: r.status, code: r.code, error: r.error }, reply });
    }
    // Creator 0's setup after the refusals: as saved first.
    await send('GET /api/payouts/setup (creator 0, after the refusals)', '/api/payouts/setup', { token: tokens[0]! });
    // The control for the log: a query parameter that the request line writes as it is.
    await send('GET /api/payouts/setup (the log marker)', `/api/payouts/setup?probe=${LOG_MARK}`, { token: tokens[1]! });
  } finally {
    child.kill('SIGTERM');
    serverExit = await exited(child);
  }
}, 240_000);

describe('bank numbers saved by 100 creators through the real server', () => {
  it('are saved: every reply and every setup shows the last 4 digits and the holder, and the sealed values open to the numbers', async () => {
    expect(serverExit, log().slice(-3000)).toBe(0);
    for (let i = 0; i < CREATORS; i++) {
      const b = banks[i]!;
      const expected = { routing_last4: b.routing.slice(-4), account_last4: b.account.slice(-4), account_type: b.type, holder_name: b.holder, verified: false };
      for (const what of [`PUT /api/payouts/method (creator ${i})`, `GET /api/payouts/setup (creator ${i})`]) {
        const reply = replies.find((r) => r.what === what)!;
        expect(reply.status, `${what}: ${reply.body}`).toBe(200);
        expect(JSON.parse(reply.body).setup).toMatchObject({ preferred_payment_method: 'ach', payout_enabled: true, ach: expected });
      }
      const portal = replies.find((r) => r.what === `GET /api/payouts/portal (creator ${i})`)!;
      expect(portal.status, portal.body).toBe(200);
      expect(JSON.parse(portal.body).setup.ach).toEqual(expected);
    }
    expect(replies.find((r) => r.what.startsWith('GET /api/payouts/statement'))!.status).toBe(200);
    // The refused saves changed nothing.
    const setupOf = (what: string) => JSON.parse(replies.find((r) => r.what === what)!.body).setup;
    expect(setupOf('GET /api/payouts/setup (creator 0, after the refusals)')).toEqual(setupOf('GET /api/payouts/setup (creator 0)'));

    // The rows hold sealed values that open to the numbers with the key file the server made.
    const database = await openDatabase(target);
    try {
      const sealed = await openSealedValues({ payoutKeys: null, dataDir });
      const rows = await database.db
        .selectFrom('users')
        .select(['id', 'ach_routing_number_encrypted', 'ach_account_number_encrypted', 'ach_account_holder_name'])
        .where('ach_account_holder_name', 'like', `${HOLDER_MARK}%`)
        .execute();
      expect(rows).toHaveLength(CREATORS);
      for (const row of rows) {
        const b = banks.find((x) => x.holder === row.ach_account_holder_name)!;
        expect(row.ach_account_number_encrypted).toMatch(/^v1\./);
        expect(sealed.open(row.ach_account_number_encrypted!, row.id)).toBe(b.account);
        expect(sealed.open(row.ach_routing_number_encrypted!, row.id)).toBe(b.routing);
        expect(abaChecksumValid(b.routing)).toBe(true);
      }
    } finally {
      await database.close();
    }
  });

  it('refuses the invalid saves with messages that echo nothing of what was sent', () => {
    expect(refusedResults).toHaveLength(refusedSaves().length);
    for (const { what, expected, reply } of refusedResults) {
      expect(reply.status, `${what}: ${reply.body}`).toBe(expected.status);
      const body = JSON.parse(reply.body) as { success: boolean; code: string; error: string };
      expect(body, what).toMatchObject({ success: false, code: expected.code, ...(expected.error ? { error: expected.error } : {}) });
    }
  });

  it('no reply, body or header, holds a full account or routing number', () => {
    expect(replies.length).toBeGreaterThanOrEqual(3 * CREATORS + refusedSaves().length);
    const leaks = replies.flatMap((r) => findNumbers(`HTTP ${r.status}\n${r.headers}\n\n${r.body}`, `the reply to ${r.what}`));
    expect(leaks, describeLeaks(leaks)).toEqual([]);
    // The control: the same search over the same text sees the holder names in bodies and the request ids in headers.
    expect(replies.filter((r) => r.body.includes(HOLDER_MARK)).length).toBeGreaterThanOrEqual(3 * CREATORS);
    expect(replies.filter((r) => r.headers.includes(HEADER_MARK)).length).toBe(replies.length);
    expect(findNumbers(`x ${banks[7]!.account} y`, 'a control text')).toHaveLength(1);
  });

  it('the server log, at LOG_LEVEL=trace, holds none, though it logged every request and refusal', () => {
    const text = log();
    const leaks = findNumbers(text, 'the server log');
    expect(leaks, describeLeaks(leaks)).toEqual([]);
    // The control: the log is the server's, at its most verbose, and the search reads it.
    expect(text).toContain(LOG_MARK);
    const lines = text.split('\n').filter((l) => l.startsWith('{'));
    const parsed = lines.map((l) => JSON.parse(l) as { level: number; msg?: string; req?: { method?: string; url?: string } });
    expect(parsed.filter((l) => l.req?.method === 'PUT' && l.req.url === '/api/payouts/method').length).toBeGreaterThanOrEqual(CREATORS + refusedSaves().length);
    expect(parsed.filter((l) => l.msg === 'request refused').length).toBeGreaterThanOrEqual(refusedSaves().length);
  });

  it('no row of any table, dumped as text, holds one', async () => {
    const database = await openDatabase(target);
    const dump: string[] = [];
    try {
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(database.db);
      expect(tables.rows.map((t) => t.name)).toContain('users');
      for (const { name } of tables.rows) {
        const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(database.db);
        for (const r of rows.rows) dump.push(`${name}: ${r.row}`);
      }
    } finally {
      await database.close();
    }
    const text = dump.join('\n');
    const leaks = findNumbers(text, 'the table dump');
    expect(leaks, describeLeaks(leaks)).toEqual([]);
    expect(dump.filter((l) => l.startsWith('users: ') && l.includes(HOLDER_MARK))).toHaveLength(CREATORS);
  });

  if (onPostgres) {
    it("pg_dump's dump of the database holds none", async () => {
      const text = (await pgDump(databaseUrl!)).toString('latin1');
      const leaks = findNumbers(text, 'pg_dump');
      expect(leaks, describeLeaks(leaks)).toEqual([]);
      expect(text.split(HOLDER_MARK).length - 1).toBe(CREATORS);
    });

    it("the PostgreSQL data directory and its WAL, after a CHECKPOINT, hold none as raw bytes", async () => {
      const { dir, oid } = await checkpointAndLocate(databaseUrl!);
      if (!existsSync(dir)) throw new Error(`PostgreSQL's data directory ${dir} is not on this machine (or not readable here): the test needs to read its files`);
      let files = await filesUnder(dir);
      if ((await totalSize(files)) > WHOLE_DATA_DIRECTORY_LIMIT) {
        files = [...(await filesUnder(path.join(dir, 'base', String(oid)))), ...(await filesUnder(path.join(dir, 'global'))), ...(await filesUnder(path.join(dir, 'pg_wal')))];
      }
      const scan = await scanFiles(files, [HOLDER_MARK]);
      expect(scan.leaks, describeLeaks(scan.leaks)).toEqual([]);
      // The control: the holder names are in the table's own files and in the WAL.
      const where = scan.found.get(HOLDER_MARK) ?? [];
      expect(where.some((f) => f.startsWith(path.join(dir, 'base', String(oid)) + path.sep)), `holder names found in ${where.join(', ')}`).toBe(true);
      expect(where.some((f) => f.startsWith(path.join(dir, 'pg_wal') + path.sep)), `holder names found in ${where.join(', ')}`).toBe(true);
      expect(scan.bytes).toBeGreaterThan(1024 * 1024);
    });
  }

  it(`every file under the server's DATA_DIR${onPostgres ? '' : ' (PGlite: base/, pg_wal/ ...)'} holds none as raw bytes`, async () => {
    if (!onPostgres) {
      // A checkpoint, so the rows are in the table files as well as in the WAL.
      const database = await openDatabase(target);
      await sql`checkpoint`.execute(database.db);
      await database.close();
    }
    const files = await filesUnder(dataDir);
    const scan = await scanFiles(files, [HOLDER_MARK]);
    expect(scan.leaks, describeLeaks(scan.leaks)).toEqual([]);
    expect(files.some((f) => f.endsWith(path.join('keys', 'payout-keys.json')))).toBe(true);
    expect(scan.files).toBe(files.length);
    if (!onPostgres) {
      const pgliteDir = path.join(dataDir, 'pglite');
      const where = scan.found.get(HOLDER_MARK) ?? [];
      expect(where.some((f) => f.startsWith(path.join(pgliteDir, 'base') + path.sep)), `holder names found in ${where.join(', ')}`).toBe(true);
      expect(where.some((f) => f.startsWith(path.join(pgliteDir, 'pg_wal') + path.sep)), `holder names found in ${where.join(', ')}`).toBe(true);
    }
  });
});

/* ---- PostgreSQL ---- */

async function adminQuery<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** pg_dump of the server's major version if it is installed where Debian puts it, else the one on PATH. */
async function pgDump(url: string): Promise<Buffer> {
  const [version] = await adminQuery<{ server_version_num: string }>(url, 'show server_version_num');
  const major = Math.floor(Number(version!.server_version_num) / 10000);
  const candidates = [`/usr/lib/postgresql/${major}/bin/pg_dump`, 'pg_dump'];
  const problems: string[] = [];
  for (const bin of candidates) {
    try {
      const { stdout } = await promisify(execFile)(bin, ['--no-owner', '--dbname', url], { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 });
      return stdout;
    } catch (err) {
      problems.push(`${bin}: ${(err as Error).message}`);
    }
  }
  throw new Error(`pg_dump could not dump the test database:\n${problems.join('\n')}`);
}

/** CHECKPOINT (a superuser's), then where the data directory is and the test database's folder in it. */
async function checkpointAndLocate(url: string): Promise<{ dir: string; oid: number }> {
  await adminQuery(url, 'checkpoint');
  const [shown] = await adminQuery<{ data_directory: string }>(url, 'show data_directory');
  const [database] = await adminQuery<{ oid: number }>(url, 'select oid::int as oid from pg_database where datname = current_database()');
  return { dir: shown!.data_directory, oid: database!.oid };
}
