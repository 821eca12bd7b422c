/**
 * The payout property on the real database, through the real service: 50 random histories of
 * orders, refunds, passing time, payout runs (some started twice; the fake provider
 * paying, failing, processing or unreachable at random) and late provider events, each played
 * both on the database and on the pure model (test/payout-model.ts, 10,000 histories in
 * run-rules.unit.test.ts). The database must end where the model does, creator by creator:
 * the same payouts (period, amount, fee, status), pending and total figures, emails; and
 * each creator paid at most once per period, paid + on its way + pending = earned, creator
 * shares + house shares = captured - refunded, to the cent.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.ts';
import { LedgerModel, nextPeriodOf, runPeriod, scenarioArb, type Scenario, type SubmitAnswer } from '../../test/payout-model.ts';
import { earn, fakeProviders, payoutCreator, refund } from '../../test/payout-support.ts';
import { applyPayoutEvent, runPayouts, type PayoutRunDeps } from './index.ts';
import { periodCutoff } from './run-rules.ts';

let t: TestApp;
const fakes = fakeProviders();

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

let events = 0;

async function play(s: Scenario): Promise<void> {
  const model = new LedgerModel(s.creators);
  const ids: string[] = [];
  for (const c of s.creators) ids.push(await payoutCreator(t.db, t.sealedValues, { method: c.method, thresholdCents: c.thresholdCents, enabled: c.enabled }));
  const index = new Map(ids.map((id, i) => [id, i]));
  const orders: string[] = [];
  let answers: SubmitAnswer[] = [];
  fakes.setAnswer((r) => answers[index.get(r.userId) ?? -1] ?? 'error');
  const deps = (now: Date): PayoutRunDeps => ({ db: t.db, opener: t.sealedValues, providerFor: fakes.providerFor, now: () => now });

  try {
    for (const op of s.ops) {
      switch (op.kind) {
        case 'order':
          orders.push(await earn(t.db, ids[op.creator]!, op.marginCents, model.now));
          break;
        case 'refund': {
          const i = model.refundTarget(op.order);
          if (i !== undefined && !model.orders[i]!.refunded) await refund(t.db, orders[i]!, model.now);
          break;
        }
        case 'run': {
          const now = op.onTheFirst ? periodCutoff(nextPeriodOf(model.now)) : model.now;
          const period = runPeriod(now, op.monthsBack);
          answers = op.answers;
          // Started twice: one after the other, as the model does (two at once interleave as they may; payout-run.test.ts has them).
          await runPayouts(deps(now), period, { requireDue: true });
          if (op.twice) await runPayouts(deps(now), period, { requireDue: true });
          break;
        }
        case 'event': {
          const i = model.eventTarget(op.payout);
          if (i === undefined) break;
          const p = model.payouts[i]!;
          events++;
          await applyPayoutEvent({ db: t.db }, { eventId: `evt_${events}`, providerReference: 'ref_unknown', idempotencyKey: `${ids[p.creator]}:${p.period}`, status: op.status, occurredAt: model.now });
          break;
        }
        case 'tick':
          break;
      }
      model.apply(op);
    }
    model.check();

    for (const [c, id] of ids.entries()) {
      const payouts = await t.db
        .selectFrom('payouts')
        .select(['id', sql<string>`period::text`.as('period'), 'amount_cents', 'fee_cents', 'status', sql<string>`payout_date::text`.as('payout_date')])
        .where('user_id', '=', id)
        .orderBy('period')
        .execute();
      const mine = model.payouts.filter((p) => p.creator === c).sort((a, b) => a.period.localeCompare(b.period));
      expect(payouts.map((p) => [p.period, p.amount_cents, p.fee_cents, p.status])).toEqual(mine.map((p) => [p.period, p.amountCents, p.feeCents, p.status]));

      const f = model.figures(c);
      const user = await t.db.selectFrom('users').select(['pending_payout_cents', 'total_earnings_cents', sql<string | null>`last_payout_date::text`.as('last')]).where('id', '=', id).executeTakeFirstOrThrow();
      expect([user.pending_payout_cents, user.total_earnings_cents]).toEqual([f.pending, f.total]);
      const paidDates = payouts.filter((p) => p.status === 'paid').map((p) => p.payout_date).sort();
      expect(user.last).toBe(paidDates.at(-1) ?? null);

      // Each payout holds exactly its amount's earnings while not failed, none once failed.
      const held = await t.db.selectFrom('earnings').select(['payout_id', 'creator_share_cents']).where('user_id', '=', id).execute();
      for (const p of payouts) {
        const sum = held.filter((e) => e.payout_id === p.id).reduce((s, e) => s + Number(e.creator_share_cents), 0);
        expect(sum, `${p.period} ${p.status}`).toBe(p.status === 'failed' ? 0 : Number(p.amount_cents));
      }
      expect(f.paid + f.inFlight + f.pending).toBe(f.total);

      // One email per final status.
      const mails = await t.db.selectFrom('email_outbox').select('dedupe_key').where('dedupe_key', 'in', payouts.flatMap((p) => [`payout:${p.id}:paid`, `payout:${p.id}:failed`]).concat('-')).execute();
      expect(mails.length).toBe(mine.reduce((s, p) => s + p.mails.length, 0));
      // The provider paid each key at most once, and only keys of payouts that exist.
      const taken = fakes.taken().filter((x) => x.request.userId === id);
      expect(new Set(taken.map((x) => x.request.idempotencyKey)).size).toBe(taken.length);
      for (const x of taken) expect(payouts.map((p) => `${id}:${p.period}`)).toContain(x.request.idempotencyKey);
    }

    // Creator shares plus house shares = captured - refunded, on the orders' own prices.
    if (orders.length > 0) {
      const money = await t.db
        .selectFrom('order_items as oi')
        .innerJoin('orders as o', 'o.id', 'oi.order_id')
        .select([
          sql<number>`sum((oi.unit_price_cents - oi.base_cost_cents) * oi.quantity)::bigint`.as('captured'),
          sql<number>`coalesce(sum((oi.unit_price_cents - oi.base_cost_cents) * oi.quantity) filter (where o.status = 'refunded'), 0)::bigint`.as('refunded'),
        ])
        .where('o.id', 'in', orders)
        .executeTakeFirstOrThrow();
      const shares = await t.db
        .selectFrom('earnings')
        .select([sql<number>`sum(creator_share_cents)::bigint`.as('creators'), sql<number>`sum(margin_cents - creator_share_cents)::bigint`.as('house')])
        .where('user_id', 'in', ids)
        .executeTakeFirstOrThrow();
      expect(Number(shares.creators) + Number(shares.house)).toBe(Number(money.captured) - Number(money.refunded));
      expect(Number(shares.creators)).toBe(s.creators.reduce((sum, _, c) => sum + model.figures(c).total, 0));
    }
  } finally {
    // Out of the next history's runs.
    await t.db.updateTable('users').set({ payout_enabled: false }).where('id', 'in', ids).execute();
    await t.db.updateTable('payouts').set({ status: 'failed' }).where('status', '=', 'pending').where('user_id', 'in', ids).execute();
  }
}

describe('the payout run over random histories, on the database', () => {
  it('ends where the model does, and pays each creator at most once per period (50 histories)', async () => {
    await fc.assert(fc.asyncProperty(scenarioArb(25, 3), play), { numRuns: 50 });
    const paid = await t.db.selectFrom('payouts').select(sql<number>`count(*)::int`.as('n')).where('status', '=', 'paid').executeTakeFirstOrThrow();
    // The histories really paid creators (how many depends on the draw: 10 or so in 50).
    expect(paid.n).toBeGreaterThan(0);
  }, 600_000);
});
