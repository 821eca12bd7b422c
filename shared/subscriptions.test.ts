import { describe, expect, it } from 'vitest';
import { CREATOR_SHARE_PERCENT } from './constants.ts';
import { splitMargin } from './money.ts';
import { UPLOAD_LIMITS } from './schemas/studio.ts';
import { subscriptionCheckoutRoute } from './schemas/subscriptions.ts';
import { merchProfit, storageLabel, SUBSCRIPTION_TIER_IDS, SUBSCRIPTION_TIERS } from './subscriptions.ts';

const MB = 1024 * 1024;

describe('SUBSCRIPTION_TIERS', () => {
  it('free: no charge, 100 MB and 10 minutes, no trial', () => {
    expect(SUBSCRIPTION_TIERS.free).toMatchObject({
      id: 'free',
      name: 'Free',
      monthlyPriceCents: 0,
      maxUploadBytes: 100 * MB,
      maxDurationSeconds: 10 * 60,
      trialDays: 0,
    });
  });
  it('pro: $9.99 a month, 2 GB and 60 minutes, a 7-day trial', () => {
    expect(SUBSCRIPTION_TIERS.pro).toMatchObject({
      id: 'pro',
      name: 'Pro',
      monthlyPriceCents: 999,
      maxUploadBytes: 2 * 1024 * MB,
      maxDurationSeconds: 60 * 60,
      trialDays: 7,
    });
  });
  it('uses the limits the upload route enforces', () => {
    for (const id of SUBSCRIPTION_TIER_IDS) {
      expect(SUBSCRIPTION_TIERS[id].maxUploadBytes).toBe(UPLOAD_LIMITS[id].videoBytes);
      expect(SUBSCRIPTION_TIERS[id].maxDurationSeconds).toBe(UPLOAD_LIMITS[id].videoSeconds);
    }
  });
  it('lists what each tier allows in words that match its numbers', () => {
    expect(SUBSCRIPTION_TIERS.free.features).toEqual([
      'Videos up to 100 MB',
      'Videos up to 10 minutes long',
      'Keep 70% of the profit on merch made from your videos',
    ]);
    expect(SUBSCRIPTION_TIERS.pro.features).toEqual([
      'Videos up to 2 GB',
      'Videos up to 60 minutes long',
      'Keep 70% of the profit on merch made from your videos',
      '7-day free trial',
    ]);
  });
  it('labels sizes in binary units', () => {
    expect(storageLabel(100 * MB)).toBe('100 MB');
    expect(storageLabel(2 * 1024 * MB)).toBe('2 GB');
  });
  it('checkout route: POST /api/subscriptions/checkout for signed-in users', () => {
    expect(subscriptionCheckoutRoute).toMatchObject({ method: 'POST', url: '/api/subscriptions/checkout', access: 'user' });
  });
});

describe('merchProfit', () => {
  it("the spec's example: 21.69 - 11.69 - 3 is 7.00 profit per item, 4.90 to the creator", () => {
    expect(merchProfit({ priceCents: 2169, overheadCents: 1169, commissionCents: 300, unitsPerMonth: 100 })).toEqual({
      profitPerItemCents: 700,
      profitPerMonthCents: 70_000,
      creatorSharePerItemCents: 490,
      creatorSharePerMonthCents: 49_000,
    });
  });
  it('rounds the share half up to the cent, as the server splits a margin', () => {
    // 70% of 5 cents is 3.5: 4. Of 3 cents is 2.1: 2.
    expect(merchProfit({ priceCents: 5, overheadCents: 0, commissionCents: 0, unitsPerMonth: 1 }).creatorSharePerItemCents).toBe(4);
    expect(merchProfit({ priceCents: 3, overheadCents: 0, commissionCents: 0, unitsPerMonth: 1 }).creatorSharePerItemCents).toBe(2);
  });
  it("applies the percentage once to the month's profit, not per item times units", () => {
    // 3 cents per item: 2 cents each when rounded per item, but 70% of 300 cents is 210.
    const r = merchProfit({ priceCents: 1003, overheadCents: 1000, commissionCents: 0, unitsPerMonth: 100 });
    expect(r.creatorSharePerItemCents).toBe(2);
    expect(r.profitPerMonthCents).toBe(300);
    expect(r.creatorSharePerMonthCents).toBe(210);
  });
  it('agrees with splitMargin for every small profit', () => {
    for (let price = 0; price < 2000; price += 13) {
      const r = merchProfit({ priceCents: price, overheadCents: 0, commissionCents: 0, unitsPerMonth: 3 });
      expect(r.creatorSharePerItemCents).toBe(splitMargin(price, CREATOR_SHARE_PERCENT).creator);
      expect(r.creatorSharePerMonthCents).toBe(splitMargin(price * 3, CREATOR_SHARE_PERCENT).creator);
    }
  });
  it('a loss is negative profit and no share', () => {
    expect(merchProfit({ priceCents: 1000, overheadCents: 1100, commissionCents: 100, unitsPerMonth: 10 })).toEqual({
      profitPerItemCents: -200,
      profitPerMonthCents: -2000,
      creatorSharePerItemCents: 0,
      creatorSharePerMonthCents: 0,
    });
  });
  it('no units: nothing a month, and never -0', () => {
    const r = merchProfit({ priceCents: 100, overheadCents: 200, commissionCents: 0, unitsPerMonth: 0 });
    expect(Object.is(r.profitPerMonthCents, 0)).toBe(true);
    expect(r.creatorSharePerMonthCents).toBe(0);
  });
  it('refuses fractions, negatives and amounts past safe integers', () => {
    const ok = { priceCents: 2169, overheadCents: 1169, commissionCents: 300, unitsPerMonth: 100 };
    for (const bad of [
      { priceCents: 21.69 },
      { priceCents: -1 },
      { overheadCents: -1 },
      { commissionCents: Number.NaN },
      { unitsPerMonth: 1.5 },
      { unitsPerMonth: -1 },
      { priceCents: Number.MAX_SAFE_INTEGER, unitsPerMonth: 2 },
    ]) {
      expect(() => merchProfit({ ...ok, ...bad })).toThrow(RangeError);
    }
  });
});
