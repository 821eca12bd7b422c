import { describe, expect, it } from 'vitest';
import { calculatorView, EXAMPLE_FIELDS, parseAmount, parseUnits, SHARE_LABEL, type CalculatorFields } from './earningsCalculator.ts';

const view = (changes: Partial<CalculatorFields>) => calculatorView({ ...EXAMPLE_FIELDS, ...changes });

describe('calculatorView', () => {
  it("the spec's example: $7.00 profit per item and $4.90 to the creator", () => {
    expect(view({})).toEqual({
      kind: 'figures',
      figures: { profitPerItem: '$7.00', profitPerMonth: '$700.00', sharePerItem: '$4.90', sharePerMonth: '$490.00', loss: false },
    });
  });
  it('the monthly figures follow the units', () => {
    expect(view({ units: '250' })).toMatchObject({ figures: { profitPerItem: '$7.00', profitPerMonth: '$1,750.00', sharePerMonth: '$1,225.00' } });
    expect(view({ units: '0' })).toMatchObject({ figures: { profitPerMonth: '$0.00', sharePerMonth: '$0.00' } });
  });
  it('rounds the share half up to the cent', () => {
    // Profit 0.05: 70% is 3.5 cents.
    expect(view({ price: '14.74', overhead: '11.69', commission: '3', units: '1' })).toMatchObject({
      figures: { profitPerItem: '$0.05', sharePerItem: '$0.04' },
    });
  });
  it('a loss shows as negative profit and no share', () => {
    expect(view({ price: '12', units: '10' })).toEqual({
      kind: 'figures',
      figures: { profitPerItem: '-$2.69', profitPerMonth: '-$26.90', sharePerItem: '$0.00', sharePerMonth: '$0.00', loss: true },
    });
  });
  it('invalid fields give messages and no figures', () => {
    const result = view({ price: '', overhead: 'abc', commission: '1.005', units: '-3' });
    expect(result.kind).toBe('invalid');
    if (result.kind !== 'invalid') return;
    expect(result.errors).toEqual({
      price: 'Enter a price, like 21.69.',
      overhead: 'Enter an amount in dollars, like 11.69.',
      commission: 'Use at most 2 decimal places.',
      units: 'Enter 0 or more units.',
    });
    expect(JSON.stringify(result)).not.toContain('NaN');
  });
  it('one bad field is enough to withhold the figures', () => {
    expect(view({ units: '2.5' })).toEqual({ kind: 'invalid', errors: { units: 'Enter a whole number of units.' } });
  });
  it('names the share with the creator percentage', () => {
    expect(SHARE_LABEL).toBe('Your share (70%) per item');
  });
});

describe('parseAmount', () => {
  it('reads dollars and cents exactly', () => {
    expect(parseAmount('price', '21.69')).toEqual({ ok: true, value: 2169 });
    expect(parseAmount('price', ' $3 ')).toEqual({ ok: true, value: 300 });
    expect(parseAmount('price', '.5')).toEqual({ ok: true, value: 50 });
    expect(parseAmount('price', '0')).toEqual({ ok: true, value: 0 });
  });
  it('refuses negatives, junk, exponents and huge amounts', () => {
    expect(parseAmount('price', '-1')).toEqual({ ok: false, message: 'Enter an amount of $0 or more.' });
    expect(parseAmount('price', '-$1')).toEqual({ ok: false, message: 'Enter an amount of $0 or more.' });
    for (const junk of ['1e3', '1,000', '21.', 'NaN', 'Infinity', '1.2.3']) expect(parseAmount('price', junk).ok).toBe(false);
    expect(parseAmount('price', '1000001')).toEqual({ ok: false, message: 'Enter at most $1,000,000.00.' });
  });
});

describe('parseUnits', () => {
  it('reads a whole count', () => {
    expect(parseUnits('100')).toEqual({ ok: true, value: 100 });
    expect(parseUnits(' 0 ')).toEqual({ ok: true, value: 0 });
  });
  it('refuses empty, fractions, junk and too many', () => {
    expect(parseUnits('').ok).toBe(false);
    expect(parseUnits('1.5')).toEqual({ ok: false, message: 'Enter a whole number of units.' });
    expect(parseUnits('ten')).toEqual({ ok: false, message: 'Enter a whole number of units.' });
    expect(parseUnits('1000001')).toEqual({ ok: false, message: 'Enter at most 1,000,000 units.' });
  });
});
