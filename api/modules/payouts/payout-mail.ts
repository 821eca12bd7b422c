/**
 * The creator's emails about a payout: one when it is sent (paid) and one when it fails, each
 * queued in the transaction that records the outcome, once per payout and status (the outbox's
 * dedupe key). Plain text, amounts in dollars; a bank account appears as its last 4 digits at
 * most, and a provider's failure reason is passed on with any long run of digits masked.
 */
import type { Kysely } from 'kysely';
import { formatCents } from '../../../shared/money.ts';
import type { DB } from '../../platform/db/schema.ts';
import { isMailable, queueMail } from '../../platform/mail/outbox.ts';
import { payoutMailFacts } from './repository.ts';
import { periodCutoff } from './run-rules.ts';

export const PAYOUT_PAID_TEMPLATE = 'payout-paid';
export const PAYOUT_FAILED_TEMPLATE = 'payout-failed';

export type PayoutMailKind = 'paid' | 'failed';

/** Once per payout, status and attempt (a retried payout that fails again says so again). */
export function payoutMailKey(payoutId: string, kind: PayoutMailKind, attempt = 1): string {
  return attempt <= 1 ? `payout:${payoutId}:${kind}` : `payout:${payoutId}:${kind}:${attempt}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The last day a period's payout covers: the day before its 1st, e.g. '31 October 2026' for 2026-11-01. */
export function coveredUntil(period: string): string {
  const last = new Date(periodCutoff(period).getTime() - 86_400_000);
  return `${last.getUTCDate()} ${MONTHS[last.getUTCMonth()]} ${last.getUTCFullYear()}`;
}

/** A provider's words with every run of 5 or more digits (an account number, say) masked, on one short line. */
export function safeReason(reason: string | undefined): string | undefined {
  const text = reason
    ?.replace(/[0-9][0-9\s-]{3,}[0-9]/g, (run) => (run.replace(/\D/g, '').length >= 5 ? '[number]' : run))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return text || undefined;
}

export interface PayoutMailFacts {
  method: 'paypal' | 'ach' | 'stripe_connect';
  amountCents: number;
  feeCents: number;
  period: string;
  displayName: string;
  methodDisplayName: string;
  processingDays: number;
  /** The bank account's last 4 digits (ACH only). */
  accountLast4: string | null;
}

function whereTo(f: PayoutMailFacts): string {
  switch (f.method) {
    case 'paypal':
      return 'your PayPal account';
    case 'stripe_connect':
      return 'your Stripe account';
    case 'ach':
      return f.accountLast4 ? `your bank account ending in ${f.accountLast4}` : 'your bank account';
  }
}

export function payoutMailText(
  f: PayoutMailFacts,
  kind: PayoutMailKind,
  opts: { failureReason?: string; publicUrl?: string } = {},
): { subject: string; text: string } {
  const amount = formatCents(f.amountCents);
  const net = formatCents(f.amountCents - f.feeCents);
  const figures = [`Earnings paid: ${amount}`, `${f.methodDisplayName} fee: ${formatCents(f.feeCents)}`, `You receive: ${net}`];
  const setupLink = opts.publicUrl ? `${opts.publicUrl.replace(/\/+$/, '')}/payment-setup` : 'the Payment Setup page';
  if (kind === 'paid') {
    const days = f.processingDays === 1 ? '1 business day' : `${f.processingDays} business days`;
    return {
      subject: `Your FrameMerch payout of ${net} has been sent`,
      text: [
        `Hello ${f.displayName},`,
        '',
        `Your FrameMerch payout for your earnings up to ${coveredUntil(f.period)} has been sent to ${whereTo(f)} by ${f.methodDisplayName}.`,
        '',
        ...figures,
        '',
        `It usually arrives within ${days}.`,
        '',
        'Thank you for creating on FrameMerch.',
      ].join('\n'),
    };
  }
  const reason = safeReason(opts.failureReason);
  return {
    subject: `Your FrameMerch payout of ${net} could not be sent`,
    text: [
      `Hello ${f.displayName},`,
      '',
      `We could not send your FrameMerch payout for your earnings up to ${coveredUntil(f.period)} to ${whereTo(f)} by ${f.methodDisplayName}.`,
      ...(reason ? ['', `The reason given: ${reason}`] : []),
      '',
      `The ${amount} is back in your pending balance and will be paid with the next monthly payout on the 1st.`,
      `Please check your payout method on ${setupLink}.`,
    ].join('\n'),
  };
}

/** Queues the email in the caller's transaction; false when the creator has no address or it was already queued. */
export async function queuePayoutMail(
  trx: Kysely<DB>,
  payoutId: string,
  kind: PayoutMailKind,
  opts: { failureReason?: string; publicUrl?: string; attempt?: number } = {},
): Promise<boolean> {
  const row = await payoutMailFacts(trx, payoutId);
  if (!row || !isMailable(row.email)) return false;
  const { subject, text } = payoutMailText(
    {
      method: row.method,
      amountCents: Number(row.amount_cents),
      feeCents: Number(row.fee_cents),
      period: row.period,
      displayName: row.display_name,
      methodDisplayName: row.method_display_name,
      processingDays: row.processing_time_days,
      accountLast4: row.ach_account_last4,
    },
    kind,
    opts,
  );
  return queueMail(trx, {
    to: row.email,
    template: kind === 'paid' ? PAYOUT_PAID_TEMPLATE : PAYOUT_FAILED_TEMPLATE,
    subject,
    text,
    dedupeKey: payoutMailKey(payoutId, kind, opts.attempt),
  });
}
