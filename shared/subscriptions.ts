/**
 * The subscription tiers (spec sections 3 and 9) as data: what each costs, what it allows and
 * how long Pro's trial runs, for the tiers page, the subscribe flow and the server's limits.
 * The upload limits themselves are UPLOAD_LIMITS (shared/schemas/studio.ts), which the upload
 * route and the upload page already enforce; the tiers read them from there so the page can
 * never promise a limit the server does not apply.
 *
 * Also the tiers page's earnings calculator (merchProfit), in integer cents.
 */
import { CREATOR_SHARE_PERCENT } from './constants.ts';
import { splitMargin, type Cents } from './money.ts';
import { UPLOAD_LIMITS } from './schemas/studio.ts';

export type SubscriptionTier = 'free' | 'pro';
export const SUBSCRIPTION_TIER_IDS = ['free', 'pro'] as const satisfies readonly SubscriptionTier[];

export interface TierDetails {
  id: SubscriptionTier;
  name: string;
  /** Billed monthly, in USD cents. */
  monthlyPriceCents: Cents;
  maxUploadBytes: number;
  maxDurationSeconds: number;
  /** Days of free trial when the tier is first taken; 0 for none. */
  trialDays: number;
  /** What the tier allows, one short line each, for the tiers page. */
  features: readonly string[];
}

/** "100 MB", "2 GB": binary units, as the upload limits are counted. */
export function storageLabel(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1024 ? `${mb / 1024} GB` : `${mb} MB`;
}

function tier(id: SubscriptionTier, name: string, monthlyPriceCents: Cents, trialDays: number, extra: readonly string[]): TierDetails {
  const limits = UPLOAD_LIMITS[id];
  return {
    id,
    name,
    monthlyPriceCents,
    maxUploadBytes: limits.videoBytes,
    maxDurationSeconds: limits.videoSeconds,
    trialDays,
    features: [
      `Videos up to ${storageLabel(limits.videoBytes)}`,
      `Videos up to ${limits.videoSeconds / 60} minutes long`,
      `Keep ${CREATOR_SHARE_PERCENT}% of the profit on merch made from your videos`,
      ...extra,
    ],
  };
}

const PRO_TRIAL_DAYS = 7;

/** The spec names no Pro price; $9.99 a month is this product's choice (README, decisions). */
export const SUBSCRIPTION_TIERS: Readonly<Record<SubscriptionTier, TierDetails>> = {
  free: tier('free', 'Free', 0, 0, []),
  pro: tier('pro', 'Pro', 999, PRO_TRIAL_DAYS, [`${PRO_TRIAL_DAYS}-day free trial`]),
};

export interface MerchProfitInput {
  /** What the buyer pays for one item. */
  priceCents: Cents;
  /** What making and sending one item costs. */
  overheadCents: Cents;
  /** Fees taken per item. */
  commissionCents: Cents;
  unitsPerMonth: number;
}

export interface MerchProfit {
  /** Price - overhead - commission; negative is a loss. */
  profitPerItemCents: Cents;
  profitPerMonthCents: Cents;
  creatorSharePerItemCents: Cents;
  creatorSharePerMonthCents: Cents;
}

/**
 * The tiers page's calculator. The creator's share is CREATOR_SHARE_PERCENT of the profit,
 * rounded half up to the cent by splitMargin, the rule the server credits sales with; the
 * month's share is that percentage of the month's profit, applied once (not the per-item share
 * times the units, which would multiply the rounding). A loss earns the creator nothing, as on
 * the server. Every input must be whole, non-negative cents (units: a whole count).
 */
export function merchProfit({ priceCents, overheadCents, commissionCents, unitsPerMonth }: MerchProfitInput): MerchProfit {
  for (const [name, value] of Object.entries({ priceCents, overheadCents, commissionCents, unitsPerMonth })) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number of at least 0`);
  }
  const profitPerItemCents = priceCents - overheadCents - commissionCents;
  // `|| 0`: a loss times no units is -0, which would not compare equal to 0 by Object.is.
  const profitPerMonthCents = profitPerItemCents * unitsPerMonth || 0;
  if (!Number.isSafeInteger(profitPerMonthCents)) throw new RangeError('the monthly profit is out of range');
  return {
    profitPerItemCents,
    profitPerMonthCents,
    creatorSharePerItemCents: splitMargin(profitPerItemCents, CREATOR_SHARE_PERCENT).creator,
    creatorSharePerMonthCents: splitMargin(profitPerMonthCents, CREATOR_SHARE_PERCENT).creator,
  };
}
