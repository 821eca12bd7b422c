import { idbPersistence, usePendingMerch } from '../../stores/pendingMerch.ts';
import { parseStored, type PendingMerch } from '../../stores/pendingMerchRecord.ts';

/**
 * The viewer's pending merch: the one the video page has open in this tab, else the one it
 * saved in IndexedDB (the categories page is often reached by a full-page load). Null when there
 * is none or it names no video.
 */
export async function readPendingMerch(): Promise<PendingMerch | null> {
  // In this tab a capture's full-resolution image may still be on its way: wait for it.
  let record = usePendingMerch.getState().record ? await usePendingMerch.getState().whenComplete() : null;
  if (!record) {
    try {
      record = parseStored(await idbPersistence().load());
    } catch {
      record = null;
    }
  }
  return record?.videoUrl ? record : null;
}
