/**
 * Key rotation for sealed values: a new key becomes current, every stored value sealed under
 * another key (in every sealed column, repository.ts SEALED_COLUMNS: the users' bank details and
 * the NACHA entries' receiver numbers) is sealed again under it (batch by batch, so a run cut
 * short is finished by the next one), and an old key leaves the ring once no stored value names
 * it. `npm run payouts:rotate-key` (scripts/rotate-payout-key.ts) drives it.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { readKeyFile, writeKeyFile } from './key-file.ts';
import { countSealedValuesByKey, rewriteSealedValues } from './repository.ts';
import { generateKey, SealedValueError, SealedValues, type KeyRing } from './sealed-values.ts';

export interface RewrapReport {
  /** Sealed values seen. */
  seen: number;
  /** Sealed again under the current key. */
  rewrapped: number;
  /** Already under the current key, left as they were. */
  current: number;
  /** Values that could not be opened (unknown key, changed, not a sealed value), left as they were. */
  failed: RewrapFailure[];
  /** Batches committed, over every table. */
  batches: number;
}

/** A value that could not be opened: where it is (`table`.`column` of the row whose id is `rowId`) and why. */
export interface RewrapFailure {
  table: string;
  column: string;
  rowId: string;
  problem: string;
}

export interface RotationResult {
  report: RewrapReport;
  /** Stored values per key id after the walk. */
  usage: Map<string, number>;
  /** Old keys no stored value names any more: dropped from `ring`. */
  retired: string[];
  /** The ring to keep: the current key and every old key still in use. */
  ring: KeyRing;
}

export interface RewrapOptions {
  batchSize?: number;
  /** After each committed batch, `index` counted over every table (progress output; tests use it to cut a run short). */
  afterBatch?: (batch: { index: number; table: string; rows: number; updated: number }) => void | Promise<void>;
}

/** The next free id of the form k<n>: one more than the highest in the ring. */
export function nextKeyId(ring: KeyRing): string {
  let highest = 0;
  for (const id of ring.keys.keys()) {
    const m = /^k(\d{1,9})$/.exec(id);
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  let n = highest + 1;
  while (ring.keys.has(`k${n}`)) n++;
  return `k${n}`;
}

/** The ring with `key` added as the current key (the others kept, to open older values). */
export function withCurrentKey(ring: KeyRing, id: string, key: Buffer): KeyRing {
  const existing = ring.keys.get(id);
  if (existing && !existing.equals(key)) throw new Error(`key id ${id} is already in the ring with another key`);
  const keys = new Map<string, Buffer>([[id, key]]);
  for (const [otherId, other] of ring.keys) if (otherId !== id) keys.set(otherId, other);
  return { current: id, keys };
}

/** Seals every stored value that is not under the ring's current key again under it. */
export async function rewrapSealedValues(db: Kysely<DB>, sealedValues: SealedValues, opts: RewrapOptions = {}): Promise<RewrapReport> {
  const report: RewrapReport = { seen: 0, rewrapped: 0, current: 0, failed: [], batches: 0 };
  await rewriteSealedValues(
    db,
    ({ table, column, rowId, associatedData, sealed }) => {
      report.seen++;
      try {
        if (!sealedValues.needsRewrap(sealed)) {
          report.current++;
          return null;
        }
        const next = sealedValues.rewrap(sealed, associatedData);
        report.rewrapped++;
        return next;
      } catch (err) {
        if (!(err instanceof SealedValueError)) throw err;
        report.failed.push({ table, column, rowId, problem: err.message });
        return null;
      }
    },
    {
      batchSize: opts.batchSize,
      afterBatch: async ({ table, rows, updated }) => {
        report.batches++;
        await opts.afterBatch?.({ index: report.batches, table, rows, updated });
      },
    },
  );
  return report;
}

/**
 * Re-encrypts every stored value under the ring's current key, then counts the values per key:
 * the old keys none of them names are retired from the returned ring.
 */
export async function rotateTo(db: Kysely<DB>, ring: KeyRing, opts: RewrapOptions = {}): Promise<RotationResult> {
  const report = await rewrapSealedValues(db, new SealedValues(ring), opts);
  const usage = await countSealedValuesByKey(db);
  const retired = [...ring.keys.keys()].filter((id) => id !== ring.current && !usage.get(id));
  const keys = new Map([...ring.keys].filter(([id]) => !retired.includes(id)));
  return { report, usage, retired, ring: { current: ring.current, keys } };
}

/**
 * Rotation with the key file: a new random key is written to the file as the current one (the
 * old ones kept), every value is sealed again under it, and the file is written once more without
 * the keys no value uses. With `rewrapOnly`, no new key: finishes a rotation cut short.
 */
export async function rotateKeyFile(
  db: Kysely<DB>,
  file: string,
  opts: RewrapOptions & { rewrapOnly?: boolean; log?: (line: string) => void } = {},
): Promise<RotationResult & { newKeyId: string | null }> {
  const log = opts.log ?? (() => {});
  const before = await readKeyFile(file);
  if (!before) throw new Error(`There is no payout key file at ${file}: start the server once to make it (or set PAYOUT_ENCRYPTION_KEYS).`);
  let ring = before;
  let newKeyId: string | null = null;
  if (!opts.rewrapOnly) {
    newKeyId = nextKeyId(before);
    ring = withCurrentKey(before, newKeyId, generateKey());
    await writeKeyFile(file, ring);
    log(`New key ${newKeyId} written to ${file} as the current key; ${[...before.keys.keys()].join(', ')} kept until no value uses them.`);
  }
  const result = await rotateTo(db, ring, opts);
  if (result.retired.length > 0) await writeKeyFile(file, result.ring);
  return { ...result, newKeyId };
}
