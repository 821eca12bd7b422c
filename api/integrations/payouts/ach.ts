/**
 * ACH payouts through the platform's bank: each payout becomes an entry of its period's NACHA
 * file (PPD credits, nacha.ts). Submitting records the entry (status processing) with the
 * receiver's numbers sealed; an admin downloads the period's file (nachaFileFor) and uploads it
 * to the bank; confirming the upload (confirmNachaUpload) marks the entries paid and hands a
 * PayoutEvent for each to the payouts module, as a webhook would.
 *
 * A bank sends no webhooks: returns (R01, R03...) arrive days later on the bank's own reports
 * and are not read here.
 */
import type { Kysely } from 'kysely';
import { nachaDestinationSealedFor } from '../../platform/crypto/associated-data.ts';
import type { DB } from '../../platform/db/schema.ts';
import { buildNachaFile, NachaError, nachaEntryFor, traceNumber, type NachaEntry, type NachaFileOptions, type NachaOrigin } from './nacha.ts';
import type { PayoutEvent, PayoutProvider, PayoutRequest, PayoutSubmission } from './provider.ts';
import { insertNachaEntry, markNachaEntryPaid, nachaEntriesOfPeriod, nextTraceSequence } from './repository.ts';

/** Seals and opens short secrets (app.sealedValues). */
export interface Sealer {
  seal(plaintext: string, associatedData: string): string;
}
export interface Opener {
  open(sealed: string, associatedData: string): string;
}

/** What a PayoutEvent is handed to (the payouts module's applyPayoutEvent). */
export type PayoutEventSink = (event: PayoutEvent) => Promise<unknown>;

const PERIOD = /^[0-9]{4}-(0[1-9]|1[0-2])-01$/;

function checkPeriod(period: string): string {
  if (!PERIOD.test(period)) throw new NachaError(`a period is the first day of a month, YYYY-MM-01 (got "${period}")`);
  return period;
}

export class NachaPayouts implements PayoutProvider {
  readonly method = 'ach' as const;
  readonly kind = 'nacha' as const;

  constructor(
    private readonly db: Kysely<DB>,
    readonly options: { origin: NachaOrigin; sealer: Sealer },
  ) {}

  /**
   * Records the payout as an entry of its period's file, or answers the entry already recorded
   * under its idempotency key. A routing number whose check digit is wrong (or an account number
   * that is not 1 to 17 digits) fails the payout at once: the bank would return it.
   */
  async submit(request: PayoutRequest): Promise<PayoutSubmission> {
    const d = request.destination;
    if (d.method !== 'ach') throw new TypeError(`payout ${request.payoutId} is not an ACH payout`);
    const period = checkPeriod(request.period);
    const trace = traceNumber(this.options.origin.odfi, await nextTraceSequence(this.db));
    let entry: NachaEntry;
    try {
      entry = nachaEntryFor(request, trace);
    } catch (err) {
      if (err instanceof NachaError) return { providerReference: request.idempotencyKey, status: 'failed', failureReason: err.message.replace(`entry ${trace}: `, '') };
      throw err;
    }
    const { row } = await insertNachaEntry(this.db, {
      trace_number: trace,
      period,
      payout_id: request.payoutId,
      user_id: request.userId,
      idempotency_key: request.idempotencyKey,
      transaction_code: entry.transactionCode,
      amount_cents: entry.amountCents,
      receiver_name: d.holderName.trim().slice(0, 200),
      destination_sealed: this.options.sealer.seal(JSON.stringify({ routing: d.routingNumber, account: d.accountNumber }), nachaDestinationSealedFor(trace)),
      account_last4: d.accountNumber.slice(-4),
    });
    return { providerReference: row.trace_number, status: row.status === 'paid' ? 'paid' : 'processing' };
  }
}

export interface NachaFile {
  fileName: string;
  content: string;
  entries: number;
  totalCents: number;
}

/**
 * The period's NACHA file: every entry recorded for it (those already confirmed too, so the
 * file downloaded again is the same payouts), or null when the period has none. The numbers
 * are opened here and live only in the answer: never log it.
 */
export async function nachaFileFor(
  db: Kysely<DB>,
  period: string,
  options: { origin: NachaOrigin; opener: Opener } & Partial<NachaFileOptions>,
): Promise<NachaFile | null> {
  const rows = await nachaEntriesOfPeriod(db, checkPeriod(period));
  if (rows.length === 0) return null;
  const entries: NachaEntry[] = rows.map((r) => {
    const opened = JSON.parse(options.opener.open(r.destination_sealed, nachaDestinationSealedFor(r.trace_number))) as { routing: string; account: string };
    return {
      transactionCode: r.transaction_code,
      routingNumber: opened.routing,
      accountNumber: opened.account,
      amountCents: Number(r.amount_cents),
      individualId: r.payout_id.replace(/-/g, '').slice(0, 15),
      individualName: r.receiver_name,
      traceNumber: r.trace_number,
    };
  });
  const createdAt = options.createdAt ?? new Date();
  const month = new Date(`${period}T00:00:00Z`).toLocaleString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });
  const content = buildNachaFile(options.origin, entries, {
    createdAt,
    fileIdModifier: options.fileIdModifier,
    effectiveDate: options.effectiveDate,
    description: options.description ?? 'PAYOUT',
    descriptiveDate: options.descriptiveDate ?? month.replace(/\s+/g, ' ').toUpperCase().slice(0, 6),
    batchNumber: options.batchNumber,
  });
  return {
    fileName: `framemerch-payouts-${period.slice(0, 7)}.ach`,
    content,
    entries: entries.length,
    totalCents: entries.reduce((s, e) => s + e.amountCents, 0),
  };
}

/**
 * The admin uploaded the period's file to the bank: each entry still processing is paid. Its
 * PayoutEvent (id `nacha:<trace>:paid`) is handed to `apply` first and the entry marked after,
 * so a confirmation cut short and repeated hands the same events again (applied once by the
 * payouts module). Answers the events of the entries this call marked paid (two confirmations at
 * once may both hand an event on, but only one counts its entry).
 */
export async function confirmNachaUpload(db: Kysely<DB>, period: string, apply: PayoutEventSink, now: Date = new Date()): Promise<PayoutEvent[]> {
  const waiting = (await nachaEntriesOfPeriod(db, checkPeriod(period))).filter((r) => r.status === 'processing');
  const events: PayoutEvent[] = [];
  for (const r of waiting) {
    const event: PayoutEvent = {
      eventId: `nacha:${r.trace_number}:paid`,
      providerReference: r.trace_number,
      idempotencyKey: r.idempotency_key,
      status: 'paid',
      occurredAt: now,
    };
    await apply(event);
    if (await markNachaEntryPaid(db, r.trace_number, now)) events.push(event);
  }
  return events;
}
