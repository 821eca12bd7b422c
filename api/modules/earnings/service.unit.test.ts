import { describe, expect, it } from 'vitest';
import { divideHalfUp } from './analytics.ts';
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import { lineEarning } from './service.ts';

describe('lineEarning', () => {
  it('splits 70/30 of (price - base cost) x quantity', () => {
    expect(CREATOR_SHARE_PERCENT).toBe(70);
    // The tiers page example: 21.69 at 11.69 base cost.
    expect(lineEarning({ unit_price_cents: 2169, base_cost_cents: 1169, quantity: 1 })).toEqual({ marginCents: 1000, creatorShareCents: 700, houseShareCents: 300 });
    expect(lineEarning({ unit_price_cents: 2169, base_cost_cents: 1169, quantity: 3 })).toEqual({ marginCents: 3000, creatorShareCents: 2100, houseShareCents: 900 });
  });

  it('rounds the creator share half up to the cent; the house gets the rest', () => {
    // 4.29 - 2.57 = 1.72: 120.4 -> 120; twice: 240.8 -> 241.
    expect(lineEarning({ unit_price_cents: 429, base_cost_cents: 257, quantity: 1 })).toEqual({ marginCents: 172, creatorShareCents: 120, houseShareCents: 52 });
    expect(lineEarning({ unit_price_cents: 429, base_cost_cents: 257, quantity: 2 })).toEqual({ marginCents: 344, creatorShareCents: 241, houseShareCents: 103 });
    // Exactly half a cent: 2.05 x 70 % = 143.5 -> 144.
    expect(lineEarning({ unit_price_cents: 1205, base_cost_cents: 1000, quantity: 1 })).toEqual({ marginCents: 205, creatorShareCents: 144, houseShareCents: 61 });
    expect(lineEarning({ unit_price_cents: 1000, base_cost_cents: 1000, quantity: 4 })).toEqual({ marginCents: 0, creatorShareCents: 0, houseShareCents: 0 });
  });

  it('always adds up to the margin', () => {
    for (let margin = 0; margin <= 2000; margin++) {
      for (const quantity of [1, 2, 7]) {
        const e = lineEarning({ unit_price_cents: 5000 + margin, base_cost_cents: 5000, quantity });
        expect(e.creatorShareCents + e.houseShareCents).toBe(margin * quantity);
        expect(Number.isInteger(e.creatorShareCents)).toBe(true);
        // Within half a cent of the exact 70 %, in whole numbers (x100) to keep floating point out.
        expect(Math.abs(e.creatorShareCents * 100 - margin * quantity * 70)).toBeLessThanOrEqual(50);
      }
    }
  });
});

describe('divideHalfUp', () => {
  it('rounds a whole-cent average half up, and is 0 with nothing to divide', () => {
    expect(divideHalfUp(0, 0)).toBe(0);
    expect(divideHalfUp(1000, 3)).toBe(333);
    expect(divideHalfUp(1001, 2)).toBe(501);
    expect(divideHalfUp(1000, 6)).toBe(167);
    expect(divideHalfUp(7, 2)).toBe(4);
  });
});
