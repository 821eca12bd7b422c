/** Display formatting shared by the web app and server-rendered texts. */

function trimDecimal(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

/** 999 -> "999", 1000 -> "1K", 1530 -> "1.5K", 1_250_000 -> "1.3M". */
export function abbreviateCount(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '0';
  if (n >= 1_000_000) return `${trimDecimal(n / 1_000_000)}M`;
  if (n >= 1_000) {
    const k = Math.round((n / 1_000) * 10) / 10;
    // 999_950 rounds to 1000K; say 1M instead.
    return k >= 1000 ? '1M' : `${trimDecimal(n / 1_000)}K`;
  }
  return String(Math.floor(n));
}

export function formatViews(n: number): string {
  return `${abbreviateCount(n)} ${n === 1 ? 'view' : 'views'}`;
}

const UNITS: Array<[string, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "1 day ago", "2 years ago". */
export function relativeTime(from: Date | string, now: Date = new Date()): string {
  const then = typeof from === 'string' ? new Date(from) : from;
  const seconds = Math.floor((now.getTime() - then.getTime()) / 1000);
  if (!Number.isFinite(seconds) || seconds < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
