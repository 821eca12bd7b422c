/**
 * NACHA files as the bank reads them: every record 94 characters, the records in order (1, 5,
 * 6..., 8, 9, nines to a whole block), counts, totals and the entry hash worked out again from
 * the entries, each receiving routing number's check digit, and invalid routing numbers refused.
 */
import { describe, expect, it } from 'vitest';
import type { PayoutRequest } from './provider.ts';
import {
  abaCheckDigit,
  abaChecksumValid,
  buildNachaFile,
  entryHash,
  nachaEntryFor,
  NachaError,
  nextWeekday,
  traceNumber,
  type NachaEntry,
  type NachaOrigin,
} from './nacha.ts';

const ORIGIN: NachaOrigin = {
  immediateDestination: '021000021',
  immediateOrigin: '1234567890',
  companyName: 'FrameMerch',
  companyId: '1234567890',
  odfi: '02100002',
  destinationName: 'JPMorgan Chase',
};
const CREATED = new Date(Date.UTC(2026, 10, 27, 14, 5)); // a Friday

/** Real routing numbers (their check digits right). */
const ROUTING = ['021000021', '011000015', '121000358', '110000000', '026009593', '322271627', '091000019'];

function entry(i: number, over: Partial<NachaEntry> = {}): NachaEntry {
  return {
    transactionCode: i % 2 === 0 ? 22 : 32,
    routingNumber: ROUTING[i % ROUTING.length]!,
    accountNumber: String(100000 + i * 7919),
    amountCents: 5000 + i * 137,
    individualId: `PAYOUT${i}`,
    individualName: `Creator Number ${i}`,
    traceNumber: traceNumber(ORIGIN.odfi, i + 1),
    ...over,
  };
}

/** Reads the file back field by field, as a bank's parser would. */
function parse(file: string) {
  expect(file.endsWith('\n')).toBe(true);
  const records = file.slice(0, -1).split('\n');
  return records;
}

const field = (record: string, from: number, to: number) => record.slice(from - 1, to);

describe('ABA routing numbers', () => {
  it('accepts numbers whose 3-7-1 weighted sum is a multiple of 10', () => {
    for (const r of ROUTING) expect(abaChecksumValid(r), r).toBe(true);
  });

  it('refuses a wrong check digit, a transposition, and anything but 9 digits', () => {
    expect(abaChecksumValid('021000022')).toBe(false);
    expect(abaChecksumValid('012000021')).toBe(false);
    expect(abaChecksumValid('02100002')).toBe(false);
    expect(abaChecksumValid('0210000210')).toBe(false);
    expect(abaChecksumValid('02100002a')).toBe(false);
    expect(abaChecksumValid('')).toBe(false);
  });

  it('works out the check digit of every 8-digit prefix: exactly one of the ten is valid', () => {
    for (const r of ROUTING) {
      expect(abaCheckDigit(r.slice(0, 8))).toBe(Number(r[8]));
      const valid = [...'0123456789'].filter((d) => abaChecksumValid(r.slice(0, 8) + d));
      expect(valid).toEqual([r[8]]);
    }
  });
});

describe('buildNachaFile', () => {
  const entries = Array.from({ length: 13 }, (_, i) => entry(i));
  const file = buildNachaFile(ORIGIN, [...entries].reverse(), { createdAt: CREATED });
  const records = parse(file);

  it('writes 94-character records, padded with nines to whole blocks of 10', () => {
    for (const r of records) expect(r).toHaveLength(94);
    // 1 + 1 + 13 + 1 + 1 = 17 records, padded to 20.
    expect(records).toHaveLength(20);
    expect(records.slice(17)).toEqual(Array(3).fill('9'.repeat(94)));
    expect(records.map((r) => r[0]).join('')).toBe(`15${'6'.repeat(13)}89999`);
  });

  it('names the bank, the company and the moment in the file header', () => {
    const h = records[0]!;
    expect(field(h, 1, 3)).toBe('101');
    expect(field(h, 4, 13)).toBe(' 021000021');
    expect(field(h, 14, 23)).toBe('1234567890');
    expect(field(h, 24, 29)).toBe('261127');
    expect(field(h, 30, 33)).toBe('1405');
    expect(field(h, 34, 34)).toBe('A');
    expect(field(h, 35, 40)).toBe('094101');
    expect(field(h, 41, 63).trim()).toBe('JPMORGAN CHASE');
    expect(field(h, 64, 86).trim()).toBe('FRAMEMERCH');
  });

  it('makes one PPD batch of credits, effective the next weekday', () => {
    const b = records[1]!;
    expect(field(b, 1, 4)).toBe('5220');
    expect(field(b, 5, 20).trim()).toBe('FRAMEMERCH');
    expect(field(b, 41, 50)).toBe('1234567890');
    expect(field(b, 51, 53)).toBe('PPD');
    expect(field(b, 54, 63).trim()).toBe('PAYOUT');
    expect(field(b, 70, 75)).toBe('261130'); // Friday the 27th: Monday the 30th
    expect(field(b, 79, 79)).toBe('1');
    expect(field(b, 80, 87)).toBe('02100002');
    expect(field(b, 88, 94)).toBe('0000001');
  });

  it('writes each entry with its transaction code, routing number and check digit, account, amount and trace, in trace order', () => {
    const details = records.slice(2, 15);
    const traces = details.map((r) => field(r, 80, 94));
    expect(traces).toEqual([...traces].sort());
    for (const r of details) {
      const e = entries.find((x) => x.traceNumber === field(r, 80, 94))!;
      expect(Number(field(r, 2, 3))).toBe(e.transactionCode);
      expect([22, 32]).toContain(Number(field(r, 2, 3)));
      const routing = field(r, 4, 12);
      expect(routing).toBe(e.routingNumber);
      expect(Number(field(r, 12, 12))).toBe(abaCheckDigit(field(r, 4, 11)));
      expect(abaChecksumValid(routing)).toBe(true);
      expect(field(r, 13, 29)).toBe(e.accountNumber.padEnd(17, ' '));
      expect(Number(field(r, 30, 39))).toBe(e.amountCents);
      expect(field(r, 55, 76).trim()).toBe(e.individualName.toUpperCase());
      expect(field(r, 79, 79)).toBe('0');
      expect(field(r, 80, 87)).toBe(ORIGIN.odfi);
    }
  });

  it('closes the batch and the file with counts, the entry hash and the totals, worked out again here', () => {
    const details = records.slice(2, 15);
    const hash = details.reduce((s, r) => s + Number(field(r, 4, 11)), 0) % 10 ** 10;
    const credits = details.reduce((s, r) => s + Number(field(r, 30, 39)), 0);
    expect(hash).toBe(entryHash(entries));
    expect(credits).toBe(entries.reduce((s, e) => s + e.amountCents, 0));

    const c = records[15]!;
    expect(field(c, 1, 4)).toBe('8220');
    expect(Number(field(c, 5, 10))).toBe(13);
    expect(Number(field(c, 11, 20))).toBe(hash);
    expect(Number(field(c, 21, 32))).toBe(0);
    expect(Number(field(c, 33, 44))).toBe(credits);
    expect(field(c, 45, 54)).toBe('1234567890');
    expect(field(c, 80, 87)).toBe('02100002');
    expect(field(c, 88, 94)).toBe('0000001');

    const f = records[16]!;
    expect(Number(field(f, 2, 7))).toBe(1);
    expect(Number(field(f, 8, 13))).toBe(2);
    expect(Number(field(f, 14, 21))).toBe(13);
    expect(Number(field(f, 22, 31))).toBe(hash);
    expect(Number(field(f, 32, 43))).toBe(0);
    expect(Number(field(f, 44, 55))).toBe(credits);
    expect(field(f, 56, 94)).toBe(' '.repeat(39));
  });

  it('keeps the entry hash to its last 10 digits', () => {
    const many = Array.from({ length: 150 }, () => ({ routingNumber: '991000019' }));
    expect(entryHash(many)).toBe((99100001 * 150) % 10 ** 10);
    expect(entryHash(many)).toBeLessThan(10 ** 10);
  });

  it('needs no padding when the records fill whole blocks', () => {
    const six = Array.from({ length: 6 }, (_, i) => entry(i));
    const r = parse(buildNachaFile(ORIGIN, six, { createdAt: CREATED }));
    expect(r).toHaveLength(10);
    expect(Number(field(r[9]!, 8, 13))).toBe(1);
  });

  it('cleans names to what banks take and cuts them to their fields', () => {
    const r = parse(buildNachaFile(ORIGIN, [entry(0, { individualName: 'Zoë Ångström-Núñez & Co. <script>' })], { createdAt: CREATED }));
    expect(field(r[2]!, 55, 76)).toBe('ZOE ANGSTROM-NUNEZ & C');
  });

  it('refuses an invalid routing number, a bad account number or amount, a repeated trace, and no entries', () => {
    const build = (e: NachaEntry[]) => () => buildNachaFile(ORIGIN, e, { createdAt: CREATED });
    expect(build([entry(0, { routingNumber: '021000022' })])).toThrow(/routing number/);
    expect(build([entry(0, { accountNumber: '12-34' })])).toThrow(/account number/);
    expect(build([entry(0, { accountNumber: '1'.repeat(18) })])).toThrow(/account number/);
    expect(build([entry(0, { amountCents: 0 })])).toThrow(/amount/);
    expect(build([entry(0, { amountCents: 12.5 })])).toThrow(/amount/);
    expect(build([entry(0), entry(1, { traceNumber: entry(0).traceNumber })])).toThrow(/trace/);
    expect(build([])).toThrow(NachaError);
    expect(() => buildNachaFile({ ...ORIGIN, immediateDestination: '123456789' }, [entry(0)], { createdAt: CREATED })).toThrow(/destination/);
  });

  it('never puts a bank number in an error message', () => {
    try {
      buildNachaFile(ORIGIN, [entry(0, { routingNumber: '021000022', accountNumber: '987654321' })], { createdAt: CREATED });
    } catch (err) {
      expect(String(err)).not.toMatch(/021000022|987654321/);
    }
  });
});

describe('entries from payout requests', () => {
  const request = (over: Partial<Extract<PayoutRequest['destination'], { method: 'ach' }>> = {}): PayoutRequest => ({
    payoutId: '6f1c2a9e-1b2c-4d5e-8f90-0123456789ab',
    idempotencyKey: 'u:2026-11-01',
    userId: 'u',
    period: '2026-11-01',
    amountCents: 12_345,
    currency: 'USD',
    destination: { method: 'ach', routingNumber: '011000015', accountNumber: '000123456789', accountType: 'savings', holderName: 'Ada Lovelace', ...over },
  });

  it('credits savings with 32 and checking with 22, and carries the payout id as the reference', () => {
    const trace = traceNumber('01100001', 42);
    expect(trace).toBe('011000010000042');
    const s = nachaEntryFor(request(), trace);
    expect(s).toMatchObject({ transactionCode: 32, amountCents: 12_345, individualId: '6f1c2a9e1b2c4d5', traceNumber: trace });
    expect(nachaEntryFor(request({ accountType: 'checking' }), trace).transactionCode).toBe(22);
  });

  it('refuses a request whose routing number fails the check', () => {
    expect(() => nachaEntryFor(request({ routingNumber: '011000016' }), traceNumber('01100001', 1))).toThrow(NachaError);
  });

  it('wraps the trace sequence within 7 digits', () => {
    expect(traceNumber('01100001', 10_000_001)).toBe('011000010000001');
  });

  it('skips weekends for the effective date', () => {
    expect(nextWeekday(new Date(Date.UTC(2026, 10, 26))).toISOString().slice(0, 10)).toBe('2026-11-27');
    expect(nextWeekday(new Date(Date.UTC(2026, 10, 28))).toISOString().slice(0, 10)).toBe('2026-11-30');
  });
});
