/**
 * Splits a print-size resample into bands of rows: the print worker computes the last band
 * itself while helper workers compute the others. The bands put together are exactly the
 * single-threaded result (image.ts resampleLanczos3Rows).
 */

/** Below this many output rows a single thread is quicker than starting helpers. */
export const MIN_ROWS_PER_BAND = 512;

/** Row edges [0, ..., height] of `count` bands as equal as whole rows allow. */
export function bandEdges(height: number, count: number): number[] {
  const n = Math.max(1, Math.min(count, Math.floor(height / MIN_ROWS_PER_BAND)));
  return Array.from({ length: n + 1 }, (_, i) => Math.round((height * i) / n));
}
