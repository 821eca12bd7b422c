/**
 * A creator's ledger as other modules read it (the payment portal and the monthly statement):
 * the balances and the earning records with what was sold, in whole cents, never a buyer's data.
 */
import type { Kysely } from 'kysely';
import type { Cents } from '../../../shared/money.ts';
import type { DB } from '../../platform/db/schema.ts';
import { creatorBalance, latestLedgerEntries, ledgerEntriesBetween } from './repository.ts';

export interface LedgerBalance {
  /** The creator's share of every sale, net of reversals. */
  totalCents: Cents;
  /** Not yet in a payout (or in a failed one), net of reversals; may be negative. */
  pendingCents: Cents;
}

export interface LedgerEntry {
  id: string;
  createdAt: Date;
  kind: 'sale' | 'reversal';
  source: string;
  /** Negative for a reversal. */
  creatorShareCents: Cents;
  orderId: string | null;
  productName: string | null;
  videoTitle: string | null;
}

export async function ledgerBalance(db: Kysely<DB>, creatorId: string): Promise<LedgerBalance> {
  const row = await creatorBalance(db, creatorId);
  return { totalCents: Number(row.total), pendingCents: Number(row.pending) };
}

type EntryRow = Awaited<ReturnType<typeof latestLedgerEntries>>[number];

function toEntry(row: EntryRow): LedgerEntry {
  return {
    id: row.id,
    createdAt: row.created_at,
    kind: row.kind,
    source: row.source,
    creatorShareCents: Number(row.creator_share_cents),
    orderId: row.order_id,
    productName: row.product_name,
    videoTitle: row.video_title,
  };
}

/** The latest `limit` earning records, newest first. */
export async function latestLedger(db: Kysely<DB>, creatorId: string, limit: number): Promise<LedgerEntry[]> {
  return (await latestLedgerEntries(db, creatorId, limit)).map(toEntry);
}

/** The earning records written in [from, to), oldest first. */
export async function ledgerBetween(db: Kysely<DB>, creatorId: string, from: Date, to: Date): Promise<LedgerEntry[]> {
  return (await ledgerEntriesBetween(db, creatorId, from, to)).map(toEntry);
}
