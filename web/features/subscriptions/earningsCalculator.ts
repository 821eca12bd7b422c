/**
 * The tiers page's earnings calculator as data: the typed text of each field in, either a
 * message per field or the four figures out. Amounts are read as decimal text straight into
 * cents (parseUsdToCents), never through floating point, so 21.69 is 2169 exactly.
 */
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import { formatCents, parseUsdToCents } from '../../../shared/money.ts';
import { merchProfit } from '../../../shared/subscriptions.ts';

export type CalculatorField = 'price' | 'overhead' | 'commission' | 'units';
export type CalculatorFields = Record<CalculatorField, string>;

/** The spec's example (price 21.69, overhead 11.69, commission 3: 7.00 profit per item), 100 a month. */
export const EXAMPLE_FIELDS: CalculatorFields = { price: '21.69', overhead: '11.69', commission: '3', units: '100' };

export const FIELD_LABELS: Record<CalculatorField, string> = {
  price: 'Price per item ($)',
  overhead: 'Overhead per item ($)',
  commission: 'Commission per item ($)',
  units: 'Units per month',
};

/** Caps that keep every product a safe integer (1e8 cents x 1e6 units is far below 2^53). */
export const MAX_AMOUNT_CENTS = 100_000_000;
export const MAX_UNITS = 1_000_000;

const AMOUNT_NAMES: Record<Exclude<CalculatorField, 'units'>, string> = {
  price: 'a price',
  overhead: 'an overhead',
  commission: 'a commission',
};

export type FieldResult = { ok: true; value: number } | { ok: false; message: string };

/** A dollar amount: digits with at most two decimals, an optional leading $, at least 0. */
export function parseAmount(field: Exclude<CalculatorField, 'units'>, text: string): FieldResult {
  const t = text.trim().replace(/^\$/, '');
  if (t === '') return { ok: false, message: `Enter ${AMOUNT_NAMES[field]}, like ${EXAMPLE_FIELDS[field]}.` };
  if (/^-\s*\$?\d/.test(t)) return { ok: false, message: 'Enter an amount of $0 or more.' };
  if (/^\d*\.\d{3,}$/.test(t)) return { ok: false, message: 'Use at most 2 decimal places.' };
  let cents: number;
  try {
    cents = parseUsdToCents(t.startsWith('.') ? `0${t}` : t);
  } catch {
    return { ok: false, message: `Enter an amount in dollars, like ${EXAMPLE_FIELDS[field]}.` };
  }
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, message: `Enter at most ${formatCents(MAX_AMOUNT_CENTS)}.` };
  return { ok: true, value: cents };
}

/** A whole count of items, 0 to MAX_UNITS. */
export function parseUnits(text: string): FieldResult {
  const t = text.trim();
  if (t === '') return { ok: false, message: `Enter how many you expect to sell a month, like ${EXAMPLE_FIELDS.units}.` };
  if (/^-\s*\d/.test(t)) return { ok: false, message: 'Enter 0 or more units.' };
  if (!/^\d+$/.test(t)) return { ok: false, message: 'Enter a whole number of units.' };
  const units = Number(t);
  if (units > MAX_UNITS) return { ok: false, message: `Enter at most ${MAX_UNITS.toLocaleString('en-US')} units.` };
  return { ok: true, value: units };
}

export interface CalculatorFigures {
  profitPerItem: string;
  profitPerMonth: string;
  sharePerItem: string;
  sharePerMonth: string;
  /** The items sell below what they cost. */
  loss: boolean;
}

export type CalculatorView =
  | { kind: 'figures'; figures: CalculatorFigures }
  | { kind: 'invalid'; errors: Partial<Record<CalculatorField, string>> };

export function calculatorView(fields: CalculatorFields): CalculatorView {
  const results = {
    price: parseAmount('price', fields.price),
    overhead: parseAmount('overhead', fields.overhead),
    commission: parseAmount('commission', fields.commission),
    units: parseUnits(fields.units),
  };
  const errors: Partial<Record<CalculatorField, string>> = {};
  for (const [field, result] of Object.entries(results) as [CalculatorField, FieldResult][]) {
    if (!result.ok) errors[field] = result.message;
  }
  if (!results.price.ok || !results.overhead.ok || !results.commission.ok || !results.units.ok) return { kind: 'invalid', errors };

  const r = merchProfit({
    priceCents: results.price.value,
    overheadCents: results.overhead.value,
    commissionCents: results.commission.value,
    unitsPerMonth: results.units.value,
  });
  return {
    kind: 'figures',
    figures: {
      profitPerItem: formatCents(r.profitPerItemCents),
      profitPerMonth: formatCents(r.profitPerMonthCents),
      sharePerItem: formatCents(r.creatorSharePerItemCents),
      sharePerMonth: formatCents(r.creatorSharePerMonthCents),
      loss: r.profitPerItemCents < 0,
    },
  };
}

export const SHARE_LABEL = `Your share (${CREATOR_SHARE_PERCENT}%) per item`;
