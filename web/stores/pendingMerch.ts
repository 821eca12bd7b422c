/**
 * The pending merch store: one record (pendingMerchRecord.ts) for the video being worked on,
 * kept in IndexedDB so a reload of the same video finds its screenshots again. Opening another
 * video starts a new record. Saves run one after another; a failed save is noted in
 * `saveError` and the page keeps working from memory.
 */
import { createStore as createIdbStore, del, get, set as idbSet } from 'idb-keyval';
import { create } from 'zustand';
import {
  addScreenshot,
  completeScreenshot,
  deleteScreenshot,
  emptyRecord,
  parseStored,
  seedThumbnail,
  toStored,
  type PendingMerch,
  type PendingScreenshot,
  type PendingVideo,
  type StoredPendingMerch,
} from './pendingMerchRecord.ts';

/** Where the record is kept; IndexedDB in the browser, a Map in tests. */
export interface PendingMerchPersistence {
  load(): Promise<unknown>;
  save(record: StoredPendingMerch): Promise<void>;
  clear(): Promise<void>;
}

const RECORD_KEY = 'current';

export function idbPersistence(): PendingMerchPersistence {
  // One database per concern, created on first use.
  let store: ReturnType<typeof createIdbStore> | null = null;
  const db = () => (store ??= createIdbStore('framemerch-pending-merch', 'records'));
  return {
    load: () => get(RECORD_KEY, db()),
    save: (record) => idbSet(RECORD_KEY, record, db()),
    clear: () => del(RECORD_KEY, db()),
  };
}

/**
 * A screenshot to add. `blob` may still be on its way (a capture's full-resolution JPEG being
 * encoded): the slot then shows `preview` until it comes.
 */
export type NewScreenshot = Omit<PendingScreenshot, 'id' | 'blob'> & { blob: Blob | Promise<Blob> };
/** A screenshot to add whose image is there already (the thumbnail). */
export type ReadyScreenshot = NewScreenshot & { blob: Blob };

export interface PendingMerchState {
  /** 'loading' while the stored record is read for the video being opened. */
  status: 'idle' | 'loading' | 'ready';
  record: PendingMerch | null;
  saveError: string | null;
  /**
   * Shows `video`'s record: the stored one when it belongs to this video, else a new one, into
   * which `seed()` (the thumbnail) is put when it arrives.
   */
  open: (video: PendingVideo, seed: () => Promise<ReadyScreenshot | null>) => Promise<void>;
  /**
   * Appends a screenshot; false when the record is full (or no video is open). One whose `blob`
   * is a promise is shown at once and stored once the promise gives its image; when it fails,
   * the screenshot is taken out again. Deleted in between, it stays deleted.
   */
  add: (shot: NewScreenshot) => boolean;
  remove: (id: string) => void;
  /**
   * The record once every full-resolution image under way has arrived (or failed): what Make
   * Merch sends. Resolves at once when none is under way.
   */
  whenComplete: () => Promise<PendingMerch | null>;
}

let nextId = 0;
const newId = () => `${Date.now().toString(36)}-${(nextId++).toString(36)}`;

export function createPendingMerchStore(persistence: PendingMerchPersistence) {
  let saving: Promise<void> = Promise.resolve();
  // Full-resolution images still on their way, each settling (never rejecting) once handled.
  const encoding = new Set<Promise<void>>();
  // Each open() takes a ticket; answers for an older one are dropped.
  let ticket = 0;

  return create<PendingMerchState>()((set, getState) => {
    const save = (record: PendingMerch) => {
      saving = saving
        .then(() => persistence.save(toStored(record)))
        .then(
          () => set({ saveError: null }),
          (error: unknown) => set({ saveError: error instanceof Error ? error.message : String(error) }),
        );
      return saving;
    };
    const commit = (record: PendingMerch) => {
      set({ record });
      void save(record);
    };

    return {
      status: 'idle',
      record: null,
      saveError: null,

      open: async (video, seed) => {
        const mine = ++ticket;
        set({ status: 'loading', record: null });
        let stored: unknown = null;
        try {
          await saving;
          stored = await persistence.load();
        } catch {
          // Storage unavailable (private mode, quota): work from memory.
        }
        if (mine !== ticket) return;
        const kept = parseStored(stored);
        if (kept && kept.videoId === video.videoId) {
          commit({ ...kept, ...video });
          set({ status: 'ready' });
          return;
        }
        if (stored !== null && stored !== undefined && !kept) {
          saving = saving.then(() => persistence.clear()).catch(() => undefined);
        }
        commit(emptyRecord(video));
        set({ status: 'ready' });

        let thumbnail: ReadyScreenshot | null = null;
        try {
          thumbnail = await seed();
        } catch {
          // A video without a usable thumbnail simply starts with empty slots.
        }
        const current = getState().record;
        if (mine !== ticket || !thumbnail || !current) return;
        const seeded = seedThumbnail(current, { ...thumbnail, id: newId() });
        if (seeded !== current) commit(seeded);
      },

      add: ({ blob, ...shot }) => {
        const record = getState().record;
        if (!record) return false;
        const id = newId();
        const ready = blob instanceof Blob;
        const result = addScreenshot(record, { ...shot, id, blob: ready ? blob : null });
        if (!result.ok) return false;
        if (ready) {
          commit(result.record);
          return true;
        }
        // Shown now; nothing to store until the full image exists.
        set({ record: result.record });
        const arrived = blob.then(
          (full) => {
            const current = getState().record;
            if (!current) return;
            const next = completeScreenshot(current, id, full);
            if (next !== current) commit(next);
          },
          () => getState().remove(id),
        );
        const settled = arrived.finally(() => encoding.delete(settled));
        encoding.add(settled);
        return true;
      },

      remove: (id) => {
        const record = getState().record;
        if (!record) return;
        const next = deleteScreenshot(record, id);
        if (next !== record) commit(next);
      },

      whenComplete: async () => {
        while (encoding.size > 0) await Promise.all(encoding);
        return getState().record;
      },
    };
  });
}

export const usePendingMerch = createPendingMerchStore(idbPersistence());
