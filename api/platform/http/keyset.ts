/**
 * Keyset paging, newest first, on (created_at, id): the one way the admin lists page. A cursor
 * is the last row's created_at as text with its microseconds and its id, base64url-encoded.
 * created_at travels as text because a JavaScript Date keeps milliseconds only, and a cursor cut
 * to the millisecond would skip the rows of the same millisecond that sort after the page's last.
 *
 * A list selects `cursorTs('t.created_at').as('cursor_ts')` and filters with `keysetAfter(...)`
 * (platform/db/repository.ts), asks for limit + 1 rows, and hands them to `keysetPage`.
 */
import type { KeysetCursor } from '../db/repository.ts';
import { AppError } from './errors.ts';

export type { KeysetCursor };

/** What a row's id must look like in a cursor. */
export const KEYSET_IDS = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  bigint: /^[1-9][0-9]{0,17}$/,
} as const;

const CURSOR_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(c: KeysetCursor): string {
  return Buffer.from(`${c.ts}|${c.id}`).toString('base64url');
}

/** The cursor, or 400 with `message` for anything this module did not make. */
export function decodeCursor(text: string, id: RegExp, message: string): KeysetCursor {
  const [ts, key, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (!ts || !key || extra !== undefined || !CURSOR_TS.test(ts) || !id.test(key) || Number.isNaN(Date.parse(ts))) {
    throw AppError.badRequest(message);
  }
  return { ts, id: key };
}

/** The first `limit` rows (of the limit + 1 asked for) and the cursor of the next page, null on the last. */
export function keysetPage<R extends { cursor_ts: string; id: string | number }>(rows: R[], limit: number): { shown: R[]; next_cursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { shown, next_cursor: rows.length > limit && last ? encodeCursor({ ts: last.cursor_ts, id: String(last.id) }) : null };
}

/** A LIKE pattern matching the text anywhere, with the text's own %, _ and \ taken literally (escape '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
