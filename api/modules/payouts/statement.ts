/**
 * A creator's statement for one month (UTC) as CSV: a row per earning record (sale or reversal)
 * and per payout dated in that month, in date order, then the totals. RFC 4180: comma separated,
 * CRLF line ends, a field quoted when it holds a comma, quote, CR or LF, quotes doubled; a byte
 * order mark first, so spreadsheets read it as UTF-8. Text that comes from people (product names,
 * video titles) is neutralised: a field that starts with =, +, -, @, tab or CR gets a leading
 * apostrophe, so no spreadsheet runs it as a formula. Amounts are dollars with 2 decimals,
 * written from integer cents. Nothing about the buyers is in it.
 */
import type { Kysely } from 'kysely';
import { PORTAL_MESSAGES, STATEMENT_MONTH_PATTERN, type PayoutMethodName, type PortalPayout } from '../../../shared/schemas/payouts.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { ledgerBetween, type LedgerEntry } from '../earnings/index.ts';
import { orderRef, toPortalPayout } from './portal.ts';
import * as repo from './repository.ts';

export interface StatementMonth {
  /** YYYY-MM */
  month: string;
  /** The month's first instant and the next month's (UTC). */
  from: Date;
  to: Date;
}

const MONTH = new RegExp(STATEMENT_MONTH_PATTERN);

/** The month asked for; 400 when it is malformed or later than `now`'s month. */
export function statementMonth(month: string, now: Date): StatementMonth {
  if (!MONTH.test(month)) throw AppError.badRequest(PORTAL_MESSAGES.statementMonth);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const from = new Date(Date.UTC(year, monthNumber - 1, 1));
  const thisMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  if (from.getTime() > thisMonth) throw AppError.badRequest(PORTAL_MESSAGES.statementMonth);
  return { month, from, to: new Date(Date.UTC(year, monthNumber, 1)) };
}

export const statementFilename = (month: string) => `framemerch-statement-${month}.csv`;

/** A field that would start a formula in a spreadsheet. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Quoted when it must be (comma, quote, CR, LF), quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Text that may come from people: neutralised against formulas, then quoted as needed. */
export function csvText(value: string): string {
  return csvField(FORMULA_START.test(value) ? `'${value}` : value);
}

/** Integer cents as dollars with 2 decimals: 123456 -> 1234.56, -5 -> -0.05. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const METHOD_LABELS: Record<PayoutMethodName, string> = { paypal: 'PayPal', ach: 'Bank transfer (ACH)', stripe_connect: 'Stripe Connect' };

/** What was sold, product first: 'Unisex T-Shirt from "My video" (order 1A2B3C4D)'. */
export function earningDescription(entry: Pick<LedgerEntry, 'source' | 'productName' | 'videoTitle' | 'orderId'>): string {
  const ref = orderRef(entry.orderId);
  const what = [entry.productName ?? entry.source, entry.videoTitle ? `from "${entry.videoTitle}"` : null, ref ? `(order ${ref})` : null];
  return what.filter((part) => part !== null).join(' ');
}

/**
 * A payout's period is the month of the run that made it (YYYY-MM); that run pays the earnings
 * created before the month began: 'Earnings up to 2025-05-31' for period 2025-06.
 */
export function payoutDescription(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
  return `Earnings up to ${lastDay}`;
}

export const STATEMENT_HEADER = ['Date', 'Type', 'Description', 'Method', 'Status', 'Amount (USD)', 'Fee (USD)'] as const;

/** The statement's text from its records (earnings and payouts of the month, each in date order). */
export function statementCsv(month: string, earnings: readonly LedgerEntry[], payouts: readonly PortalPayout[]): string {
  type Line = { date: string; cells: string[] };
  const earningLines: Line[] = earnings.map((e) => {
    const date = e.createdAt.toISOString().slice(0, 10);
    return { date, cells: [date, e.kind, csvText(earningDescription(e)), '', '', dollars(e.creatorShareCents), ''] };
  });
  const payoutLines: Line[] = payouts.map((p) => ({
    date: p.date,
    cells: [p.date, 'payout', csvText(payoutDescription(p.period)), csvField(METHOD_LABELS[p.method]), p.status, dollars(p.amount_cents), dollars(p.fee_cents)],
  }));
  // Stable: on the same day, earnings before payouts, each kind in its own order.
  const lines = [...earningLines, ...payoutLines].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
  const sales = sum(earnings.filter((e) => e.kind === 'sale').map((e) => e.creatorShareCents));
  const reversals = sum(earnings.filter((e) => e.kind === 'reversal').map((e) => e.creatorShareCents));
  const sent = payouts.filter((p) => p.status !== 'failed');
  const total = (label: string, cents: number, feeCents?: number) => [month, 'total', csvText(label), '', '', dollars(cents), feeCents === undefined ? '' : dollars(feeCents)];

  const rows = [
    [...STATEMENT_HEADER],
    ...lines.map((l) => l.cells),
    total('Sales', sales),
    total('Reversals', reversals),
    total('Net earnings', sales + reversals),
    total('Payouts (not counting failed ones)', sum(sent.map((p) => p.amount_cents)), sum(sent.map((p) => p.fee_cents))),
  ];
  return `\uFEFF${rows.map((cells) => cells.join(',')).join('\r\n')}\r\n`;
}

/** The signed-in creator's statement for `month` (YYYY-MM); 400 for a malformed or future month. */
export async function payoutStatement(db: Kysely<DB>, userId: string, month: string, now: Date = new Date()): Promise<{ filename: string; csv: string }> {
  const period = statementMonth(month, now);
  const earnings = await ledgerBetween(db, userId, period.from, period.to);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const payouts = (await repo.payoutsBetween(db, userId, day(period.from), day(period.to))).map(toPortalPayout);
  return { filename: statementFilename(period.month), csv: statementCsv(period.month, earnings, payouts) };
}
