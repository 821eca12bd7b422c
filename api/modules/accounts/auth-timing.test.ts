/**
 * The time of an answer does not tell whether an email has an account: a wrong password for an
 * account and any password for an unknown email each cost one scrypt; a sign-up with an email
 * already registered hashes the password as a new one does. The two kinds of request are
 * interleaved, so a slow patch of the machine falls on both, and their medians compared: the
 * wall-clock time a client sees, and the CPU time the server spends. Each request comes from its
 * own address and email, so no limit trips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.ts';

const PASSWORD = 'velvet osprey parsnip quarry';
const ROUNDS = 15;
const TRIES = 5;
const WARM_UP = 2;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

let nextAddress = 0;
/** A fresh TEST-NET address for each request. */
const address = () => {
  nextAddress++;
  return `198.18.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
};

interface Cost {
  /** Wall-clock time of the request, what a client sees. */
  ms: number;
  /** CPU time this process spent meanwhile (scrypt's threads included): the work, whatever else the machine runs. */
  cpuMs: number;
}

async function timed(url: string, payload: { email: string; password: string }, expected: number): Promise<Cost> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const res = await t.app.inject({ method: 'POST', url, payload, remoteAddress: address() });
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  expect(res.statusCode, `${url} ${payload.email}`).toBe(expected);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Ratios {
  wall: number;
  cpu: number;
}
const within = (r: number) => r >= 0.9 && r <= 1.1;

/**
 * Runs `a` and `b` in turns, ROUNDS times each (a b, then b a, so neither always goes first),
 * after a warm-up of each (numbered from ROUNDS on), and gives the ratios of their medians.
 */
async function measure(a: (i: number) => Promise<Cost>, b: (i: number) => Promise<Cost>): Promise<Ratios> {
  for (let w = ROUNDS; w < ROUNDS + WARM_UP; w++) {
    await a(w);
    await b(w);
  }
  const as: Cost[] = [];
  const bs: Cost[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      as.push(await a(i));
      bs.push(await b(i));
    } else {
      bs.push(await b(i));
      as.push(await a(i));
    }
  }
  const ratio = (key: keyof Cost) => median(as.map((c) => c[key])) / median(bs.map((c) => c[key]));
  return { wall: ratio('ms'), cpu: ratio('cpuMs') };
}

/**
 * The ratios of the medians, measured up to TRIES times. A machine busy with other work (other
 * test files run alongside) can slow a stretch of requests by half, which no interleaving fully
 * cancels; the CPU time the server spends is not moved by that. A real difference (the unknown
 * email or the taken one skipping its scrypt: a tenth of the time or less) shows in every try, so
 * a try with both ratios within 0.9 to 1.1 passes, and every try is reported.
 */
async function compare(label: string, run: (round: number) => Promise<Ratios>): Promise<Ratios[]> {
  const tries: Ratios[] = [];
  for (let round = 0; round < TRIES; round++) {
    const ratios = await run(round);
    tries.push(ratios);
    if (within(ratios.wall) && within(ratios.cpu)) break;
  }
  console.info(`${label}: ${tries.map((r) => `wall ${r.wall.toFixed(3)}, cpu ${r.cpu.toFixed(3)}`).join('; then ')}`);
  return tries;
}

const passed = (tries: Ratios[]) => tries.some((r) => within(r.wall) && within(r.cpu));

describe('time of an answer', () => {
  const known = (round: number, i: number) => `known-${round}-${i}@example.com`;
  const registered = new Set<number>();

  /** The accounts of one try, signed up (once) before it. */
  async function register(round: number) {
    if (registered.has(round)) return;
    registered.add(round);
    for (let i = 0; i < ROUNDS + WARM_UP; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: known(round, i), password: PASSWORD }, remoteAddress: address() });
      expect(res.statusCode).toBe(201);
    }
  }

  it('login: a wrong password for an account takes as long as an unknown email', async () => {
    // Each try has accounts of its own, so none reaches its own limit of failures.
    const tries = await compare('login, wrong password / unknown email', async (round) => {
      await register(round);
      return measure(
        (i) => timed('/api/auth/login', { email: known(round, i), password: 'wrong horse battery staple' }, 401),
        (i) => timed('/api/auth/login', { email: `unknown-${round}-${i}@example.com`, password: 'wrong horse battery staple' }, 401),
      );
    });
    expect(passed(tries), JSON.stringify(tries)).toBe(true);
  });

  it('sign-up: an email already registered takes as long as a new one', async () => {
    const tries = await compare('sign-up, registered / new email', async (round) => {
      await register(round);
      return measure(
        (i) => timed('/api/auth/signup', { email: known(round, i), password: PASSWORD }, 409),
        (i) => timed('/api/auth/signup', { email: `fresh-${round}-${i}@example.com`, password: PASSWORD }, 201),
      );
    });
    expect(passed(tries), JSON.stringify(tries)).toBe(true);
  });
});
