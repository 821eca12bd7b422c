/**
 * The schema-driven fuzz: a fixed-seed run of requests made from the app's own OpenAPI document
 * (every operation; signed out, as a creator and as an admin; fitting and hostile values in every
 * path parameter, query parameter and body). No answer may be a 5xx, none slower than 5 s.
 */
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../platform/sessions/sessions.ts';
import { ORIGIN } from '../browser.ts';
import { testApp, testConfig, type TestApp } from '../harness.ts';
import { prepareFuzz, type FuzzSetup } from './fuzz-setup.ts';
import { runFuzz, type Actor } from './run-fuzz.ts';

const SEED = 2206;
// 7 to 15 s on this shared 2-core machine (inject, one request at a time), 12 to 30 s with the
// setup; kept well under the 90 s an API test file may take. `npm run fuzz` runs a long one.
const REQUESTS = 5000;

let t: TestApp;
let setup: FuzzSetup;
let actors: Actor[];

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  setup = await prepareFuzz(t.db, t.storage);
  const sessionOf = (id: string) => async () => (await createSession(t.db, id, 1, {})).token;
  actors = [
    { name: 'signed out', session: null },
    { name: 'creator', session: sessionOf(setup.creatorId) },
    { name: 'admin', session: sessionOf(setup.adminId) },
  ];
});
afterAll(async () => t?.close());

it(`answers ${REQUESTS} fuzzed requests over every operation with no 5xx and none slower than 5 s`, { timeout: 180_000 }, async () => {
  const counts = await runFuzz({ target: { app: t.app }, seed: SEED, requests: REQUESTS, timeoutMs: 5000, actors, known: setup.known, origin: ORIGIN });
  expect(counts.total).toBe(REQUESTS);
  // Every operation of the document was tried.
  expect(Object.keys(counts.byOperation).length).toBe(counts.operations);
  expect(counts.serverErrors).toEqual([]);
  expect(counts.slow).toEqual([]);
  expect(counts.unanswered).toEqual([]);
});

it('counts the 5xx answers of an app that fails on a value out of range, with the request that caused them', async () => {
  const app = Fastify();
  await app.register(swagger, { openapi: { info: { title: 'fails', version: '1' } } });
  app.post('/api/frames', { schema: { body: { type: 'object', properties: { at: { type: 'number' } } } } }, async (request) => {
    const { at } = request.body as { at?: number };
    if (typeof at === 'number' && at < 0) throw new Error('negative time');
    return { ok: true };
  });
  try {
    const counts = await runFuzz({ target: { app }, seed: SEED, requests: 300, timeoutMs: 5000, actors: [{ name: 'signed out', session: null }], origin: ORIGIN });
    expect(counts.serverErrors.length).toBeGreaterThan(0);
    expect(counts.failed).toBe(counts.serverErrors.length);
    for (const found of counts.serverErrors) {
      expect(found).toMatchObject({ method: 'POST', url: expect.stringMatching(/^\/api\/frames/), status: 500 });
      expect(found.body).toMatch(/"at":"?-/);
    }
  } finally {
    await app.close();
  }
});
