/**
 * Money is integer cents everywhere. Amounts from the catalogue are parsed from their
 * decimal text, never through floating point.
 */

export type Cents = number;

export class MoneyFormatError extends Error {
  override name = 'MoneyFormatError';
}

/** Parses "21.69", "4", "0.8" into cents. Rejects negatives, more than two decimals and junk. */
export function parseUsdToCents(text: string): Cents {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) throw new MoneyFormatError(`Not a USD amount: "${text}"`);
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + frac;
  if (!Number.isSafeInteger(cents)) throw new MoneyFormatError(`USD amount out of range: "${text}"`);
  return cents;
}

/** "$21.69", "$1,750.00", "-$1.50": dollars grouped by thousands, always two decimals. */
export function formatCents(cents: Cents, currency = 'USD'): string {
  if (currency === 'USD') {
    const sign = cents < 0 ? '-' : '';
    const abs = Math.abs(cents);
    const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
    return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
  }
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

/**
 * Splits an item's margin between the creator and the house. The creator's share is
 * rounded half-up to the cent; the house gets the rest, so the parts always add up.
 */
export function splitMargin(marginCents: Cents, creatorPercent: number): { creator: Cents; house: Cents } {
  if (!Number.isSafeInteger(marginCents)) throw new RangeError('margin must be whole cents');
  if (marginCents <= 0) return { creator: 0, house: marginCents };
  const creator = Math.floor((marginCents * creatorPercent + 50) / 100);
  return { creator, house: marginCents - creator };
}
