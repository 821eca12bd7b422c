/**
 * NACHA files: ACH payouts as one PPD batch of credits, the file the platform's bank (the ODFI)
 * takes and sends into the ACH network. Pure code: the ACH provider (ach.ts) keeps the entries,
 * this turns them into the file.
 *
 * The layout (NACHA Operating Rules, Appendix Two), every record 94 characters:
 *   1  file header       immediate destination and origin, creation date and time, file id modifier
 *   5  batch header      service class 220 (credits only), the company, PPD, entry description, effective date, ODFI
 *   6  entry detail      transaction code 22 (checking) or 32 (savings), the receiver's routing and
 *                        account numbers, amount in cents, our reference, name, trace number
 *   8  batch control     entry count, entry hash, debit and credit totals
 *   9  file control      batch count, block count, entry count, entry hash, totals
 * then records of nines until the count is a multiple of 10 (a block). The entry hash is the sum
 * of the entries' receiving DFI ids (the routing numbers' first 8 digits), its last 10 digits.
 * A trace number is the ODFI's 8 digits and a 7-digit sequence number.
 */
import { abaChecksumValid } from '../../../shared/bank.ts';
import type { PayoutRequest } from './provider.ts';

export const RECORD_LENGTH = 94;
export const BLOCKING_FACTOR = 10;
export const CHECKING_CREDIT = 22;
export const SAVINGS_CREDIT = 32;
/** The largest amount one entry can carry (10 digits of cents). */
export const MAX_ENTRY_CENTS = 9_999_999_999;

export class NachaError extends Error {
  override name = 'NachaError';
}

export { abaChecksumValid };

/** The check digit the first 8 digits of a routing number call for. */
export function abaCheckDigit(first8: string): number {
  if (!/^[0-9]{8}$/.test(first8)) throw new NachaError('a routing number starts with 8 digits');
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(first8[i]) * weights[i]!;
  return (10 - (sum % 10)) % 10;
}

/** The platform's side of the file: NACHA_* settings. */
export interface NachaOrigin {
  /** The routing number of the bank the file goes to (9 digits). */
  immediateDestination: string;
  /** As the bank assigned it: 10 characters, or 9 digits (a space goes before them). */
  immediateOrigin: string;
  /** Up to 16 characters, shown to the receivers. */
  companyName: string;
  /** Up to 10 characters, as the bank assigned it (often 1 and the EIN). */
  companyId: string;
  /** The originating bank's routing number's first 8 digits. */
  odfi: string;
  /** The destination bank's name, optional. */
  destinationName?: string;
}

export interface NachaEntry {
  transactionCode: typeof CHECKING_CREDIT | typeof SAVINGS_CREDIT;
  routingNumber: string;
  accountNumber: string;
  amountCents: number;
  /** Our reference, up to 15 characters (the payout's id). */
  individualId: string;
  /** The account holder, up to 22 characters. */
  individualName: string;
  /** 15 digits: the ODFI and a sequence number. */
  traceNumber: string;
}

export interface NachaFileOptions {
  createdAt: Date;
  /** A to Z or 0 to 9: tells apart two files made on the same day. */
  fileIdModifier?: string;
  /** When the receivers get the money; the next weekday after createdAt by default. */
  effectiveDate?: Date;
  /** Company entry description, up to 10 characters (receivers see it). */
  description?: string;
  /** Company descriptive date, up to 6 characters (receivers may see it; the month paid for). */
  descriptiveDate?: string;
  batchNumber?: number;
}

/** Upper case, letters, digits and a few marks only: what every bank's ACH system takes. */
function clean(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 &.,'/-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const alpha = (text: string, width: number) => clean(text).slice(0, width).padEnd(width, ' ');
function numeric(value: number | string, width: number): string {
  const s = String(value);
  if (!/^[0-9]+$/.test(s) || s.length > width) throw new NachaError(`${s} does not fit ${width} digits`);
  return s.padStart(width, '0');
}
const blank = (width: number) => ' '.repeat(width);

const yymmdd = (d: Date) => `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
const hhmm = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}${String(d.getUTCMinutes()).padStart(2, '0')}`;

/** The next Monday-to-Friday day after `d` (UTC); bank holidays are the ODFI's to skip. */
export function nextWeekday(d: Date): Date {
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
  while (next.getUTCDay() === 0 || next.getUTCDay() === 6) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/** The trace number of the `sequence`th entry sent through this ODFI (the sequence wraps at 10^7). */
export function traceNumber(odfi: string, sequence: number): string {
  if (!/^[0-9]{8}$/.test(odfi)) throw new NachaError('the ODFI id is 8 digits');
  if (!Number.isInteger(sequence) || sequence < 1) throw new NachaError('a trace sequence is a positive whole number');
  return `${odfi}${String(sequence % 10_000_000).padStart(7, '0')}`;
}

/** Checks one entry; throws NachaError naming what is wrong. Never puts a number in the message. */
export function checkEntry(entry: NachaEntry): void {
  if (!abaChecksumValid(entry.routingNumber)) throw new NachaError(`entry ${entry.traceNumber}: the routing number is not a valid ABA routing number`);
  if (!/^[0-9]{1,17}$/.test(entry.accountNumber)) throw new NachaError(`entry ${entry.traceNumber}: the account number must be 1 to 17 digits`);
  if (entry.transactionCode !== CHECKING_CREDIT && entry.transactionCode !== SAVINGS_CREDIT) {
    throw new NachaError(`entry ${entry.traceNumber}: only credits to checking (22) or savings (32) are sent`);
  }
  if (!Number.isInteger(entry.amountCents) || entry.amountCents <= 0 || entry.amountCents > MAX_ENTRY_CENTS) {
    throw new NachaError(`entry ${entry.traceNumber}: the amount must be a whole number of cents from 1 to ${MAX_ENTRY_CENTS}`);
  }
  if (!/^[0-9]{15}$/.test(entry.traceNumber)) throw new NachaError(`entry ${entry.traceNumber}: a trace number is 15 digits`);
  if (clean(entry.individualName).length === 0) throw new NachaError(`entry ${entry.traceNumber}: the receiver's name is empty`);
}

/** An ACH payout request as an entry of the file. */
export function nachaEntryFor(request: PayoutRequest, trace: string): NachaEntry {
  const d = request.destination;
  if (d.method !== 'ach') throw new NachaError(`payout ${request.payoutId} is not an ACH payout`);
  if (request.currency !== 'USD') throw new NachaError('ACH payouts are in US dollars');
  const entry: NachaEntry = {
    transactionCode: d.accountType === 'savings' ? SAVINGS_CREDIT : CHECKING_CREDIT,
    routingNumber: d.routingNumber,
    accountNumber: d.accountNumber,
    amountCents: request.amountCents,
    individualId: request.payoutId.replace(/-/g, '').slice(0, 15),
    individualName: d.holderName,
    traceNumber: trace,
  };
  checkEntry(entry);
  return entry;
}

/** The entry hash: the receiving DFI ids summed, the last 10 digits kept. */
export function entryHash(entries: readonly Pick<NachaEntry, 'routingNumber'>[]): number {
  let sum = 0;
  for (const e of entries) sum += Number(e.routingNumber.slice(0, 8));
  return sum % 10_000_000_000;
}

function immediateField(value: string): string {
  if (/^[0-9]{9}$/.test(value)) return ` ${value}`;
  if (/^[0-9A-Z ]{10}$/i.test(value)) return value.toUpperCase();
  throw new NachaError('an immediate destination or origin is 9 digits or 10 characters');
}

function line(record: string): string {
  if (record.length !== RECORD_LENGTH) throw new NachaError(`a record came out ${record.length} characters long`);
  return record;
}

/**
 * The whole file for these entries: one PPD batch of credits, ordered by trace number, padded to
 * whole blocks. Refuses (NachaError) an invalid routing number, account number or amount, and
 * an empty list.
 */
export function buildNachaFile(origin: NachaOrigin, entries: readonly NachaEntry[], options: NachaFileOptions): string {
  if (entries.length === 0) throw new NachaError('a NACHA file needs at least one entry');
  if (!abaChecksumValid(origin.immediateDestination)) throw new NachaError('the immediate destination is not a valid routing number');
  if (!/^[0-9]{8}$/.test(origin.odfi)) throw new NachaError('the ODFI id is 8 digits');
  for (const e of entries) checkEntry(e);
  const traces = new Set(entries.map((e) => e.traceNumber));
  if (traces.size !== entries.length) throw new NachaError('two entries share a trace number');
  const sorted = [...entries].sort((a, b) => (a.traceNumber < b.traceNumber ? -1 : a.traceNumber > b.traceNumber ? 1 : 0));

  const modifier = (options.fileIdModifier ?? 'A').toUpperCase();
  if (!/^[A-Z0-9]$/.test(modifier)) throw new NachaError('the file id modifier is one of A-Z or 0-9');
  const created = options.createdAt;
  const effective = options.effectiveDate ?? nextWeekday(created);
  const batchNumber = options.batchNumber ?? 1;
  const companyId = origin.companyId.toUpperCase().slice(0, 10).padEnd(10, ' ');
  const hash = entryHash(sorted);
  const credits = sorted.reduce((sum, e) => sum + e.amountCents, 0);

  const records: string[] = [];
  records.push(
    line(
      '1' +
        '01' +
        immediateField(origin.immediateDestination) +
        immediateField(origin.immediateOrigin) +
        yymmdd(created) +
        hhmm(created) +
        modifier +
        '094' +
        numeric(BLOCKING_FACTOR, 2) +
        '1' +
        alpha(origin.destinationName ?? '', 23) +
        alpha(origin.companyName, 23) +
        blank(8),
    ),
  );
  records.push(
    line(
      '5' +
        '220' +
        alpha(origin.companyName, 16) +
        blank(20) +
        companyId +
        'PPD' +
        alpha(options.description ?? 'PAYOUT', 10) +
        alpha(options.descriptiveDate ?? '', 6) +
        yymmdd(effective) +
        blank(3) +
        '1' +
        origin.odfi +
        numeric(batchNumber, 7),
    ),
  );
  for (const e of sorted) {
    records.push(
      line(
        '6' +
          numeric(e.transactionCode, 2) +
          e.routingNumber.slice(0, 8) +
          e.routingNumber[8] +
          e.accountNumber.padEnd(17, ' ') +
          numeric(e.amountCents, 10) +
          alpha(e.individualId, 15) +
          alpha(e.individualName, 22) +
          blank(2) +
          '0' +
          e.traceNumber,
      ),
    );
  }
  records.push(
    line(
      '8' +
        '220' +
        numeric(sorted.length, 6) +
        numeric(hash, 10) +
        numeric(0, 12) +
        numeric(credits, 12) +
        companyId +
        blank(19) +
        blank(6) +
        origin.odfi +
        numeric(batchNumber, 7),
    ),
  );
  const withControl = records.length + 1;
  const blocks = Math.ceil(withControl / BLOCKING_FACTOR);
  records.push(
    line('9' + numeric(1, 6) + numeric(blocks, 6) + numeric(sorted.length, 8) + numeric(hash, 10) + numeric(0, 12) + numeric(credits, 12) + blank(39)),
  );
  while (records.length % BLOCKING_FACTOR !== 0) records.push('9'.repeat(RECORD_LENGTH));
  return `${records.join('\n')}\n`;
}
