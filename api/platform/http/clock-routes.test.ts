/**
 * The admin's clock routes: with TEST_CLOCK an admin moves the app's clock to the 1st of next
 * month, and the payout run of that month becomes due; without it the clock cannot move.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { APP_CLOCK_MESSAGES } from '../../../shared/schemas/clock.ts';
import { PAYOUT_RUN_MESSAGES } from '../../../shared/schemas/payouts.ts';
import { createUser } from '../../modules/accounts/index.ts';
import { nextPeriod, periodAt } from '../../modules/payouts/run-rules.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { earn, payoutCreator } from '../../test/payout-support.ts';
import { createSession, SESSION_COOKIE } from '../sessions/sessions.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function admin(app: TestApp) {
  const user = await createUser(app.db, { email: `clock-admin-${Date.now()}@example.com`, displayName: 'Admin', role: 'customer', emailVerified: true });
  await app.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
  const { token } = await createSession(app.db, user.id, 1, {});
  const headers = { origin: ORIGIN, host: 'localhost:3000' };
  return {
    get: () => app.app.inject({ url: '/api/admin/clock', headers, cookies: { [SESSION_COOKIE]: token } }),
    advance: (to: string) => app.app.inject({ method: 'POST', url: '/api/admin/clock', headers, cookies: { [SESSION_COOKIE]: token }, payload: { to } }),
    run: (period: string) => app.app.inject({ method: 'POST', url: '/api/admin/payouts/run', headers, cookies: { [SESSION_COOKIE]: token }, payload: { period } }),
  };
}

describe('the app clock routes', () => {
  it("with TEST_CLOCK: an admin moves the clock to next month's 1st, whose payout run then pays earnings made before it; the clock never goes back", async () => {
    t = await testApp({ config: await testConfig({ TEST_CLOCK: 'true' }) });
    const a = await admin(t);
    const before = (await a.get()).json();
    expect(before).toMatchObject({ success: true, offset_ms: 0, adjustable: true });
    expect(Math.abs(Date.parse(before.now) - Date.now())).toBeLessThan(5000);

    const next = nextPeriod(periodAt(new Date()));
    const creator = await payoutCreator(t.db, t.sealedValues, { method: 'paypal' });
    await earn(t.db, creator, 10_000);
    const early = await a.run(next.slice(0, 7));
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toBe(PAYOUT_RUN_MESSAGES.notDue);

    const moved = await a.advance(`${next}T00:05:00Z`);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.headers['cache-control']).toContain('no-store');
    expect(Date.parse(moved.json().now)).toBeGreaterThanOrEqual(Date.parse(`${next}T00:05:00Z`));
    expect(moved.json().offset_ms).toBeGreaterThan(0);

    const run = await a.run(next.slice(0, 7));
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().run).toMatchObject({ period: next, created: 1, submitted: 1 });
    const payout = await t.db.selectFrom('payouts').select(['amount_cents', 'payout_date']).where('user_id', '=', creator).executeTakeFirstOrThrow();
    expect(payout.amount_cents).toBe(7000);
    expect(new Date(payout.payout_date).toISOString().slice(0, 10)).toBe(next);

    const back = await a.advance('2000-01-01T00:00:00Z');
    expect(back.statusCode).toBe(200);
    expect(back.json().offset_ms).toBe(moved.json().offset_ms);
    expect((await a.advance('yesterday')).statusCode).toBe(400);
  });

  it('without TEST_CLOCK the clock is the system clock and cannot be moved', async () => {
    t = await testApp();
    const a = await admin(t);
    expect((await a.get()).json()).toMatchObject({ offset_ms: 0, adjustable: false });
    const refused = await a.advance('2999-01-01T00:00:00Z');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, error: APP_CLOCK_MESSAGES.fixed, code: 'CONFLICT' });
    expect((await a.get()).json().offset_ms).toBe(0);
  });
});
