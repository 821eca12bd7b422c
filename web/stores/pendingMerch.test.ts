import { describe, expect, it } from 'vitest';
import { createPendingMerchStore, type PendingMerchPersistence, type ReadyScreenshot } from './pendingMerch.ts';
import { MAX_SCREENSHOTS, PENDING_MERCH_VERSION, parseStored, toStored, type PendingVideo, type StoredPendingMerch } from './pendingMerchRecord.ts';

function memoryPersistence(initial?: unknown) {
  const map = new Map<string, unknown>();
  if (initial !== undefined) map.set('record', initial);
  const persistence: PendingMerchPersistence = {
    load: async () => map.get('record'),
    save: async (record) => void map.set('record', record),
    clear: async () => void map.delete('record'),
  };
  return { map, persistence };
}

const video = (id: string): PendingVideo => ({
  videoId: id,
  videoUrl: `/media/videos/${id}.mp4`,
  thumbnail: `/media/thumbnails/${id}.jpg`,
  videoTitle: `Video ${id}`,
  creatorName: 'Ada',
});

const shot = (timestamp: number | null, source: ReadyScreenshot['source'] = 'canvas'): ReadyScreenshot => ({
  blob: new Blob([`frame at ${timestamp}`], { type: 'image/jpeg' }),
  width: 1280,
  height: 720,
  source,
  timestamp,
});
const thumbnail = () => Promise.resolve(shot(null, 'thumbnail'));
const noThumbnail = () => Promise.resolve(null);

/** Lets the queued saves run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('pending merch store', () => {
  it('seeds a new video with its thumbnail in the first slot and persists the record', async () => {
    const { map, persistence } = memoryPersistence();
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), thumbnail);
    await settle();
    const record = store.getState().record;
    expect(store.getState().status).toBe('ready');
    expect(record?.screenshots.map((s) => s.source)).toEqual(['thumbnail']);
    const stored = map.get('record') as StoredPendingMerch;
    expect(stored.version).toBe(PENDING_MERCH_VERSION);
    expect(stored.videoId).toBe('a');
    expect(stored.screenshots[0]?.blob).toBeInstanceOf(Blob);
  });

  it('adds up to six screenshots, refuses the seventh, and tracks the newest capture time', async () => {
    const store = createPendingMerchStore(memoryPersistence().persistence);
    await store.getState().open(video('a'), thumbnail);
    for (let i = 1; i < MAX_SCREENSHOTS; i++) expect(store.getState().add(shot(i * 1.5))).toBe(true);
    expect(store.getState().add(shot(99))).toBe(false);
    const record = store.getState().record;
    expect(record?.screenshots).toHaveLength(MAX_SCREENSHOTS);
    expect(record?.screenshot_timestamp).toBe(7.5);
    expect(new Set(record?.screenshots.map((s) => s.id)).size).toBe(MAX_SCREENSHOTS);
  });

  it('deletes by id, frees the slot, and falls back to the newest remaining capture time', async () => {
    const store = createPendingMerchStore(memoryPersistence().persistence);
    await store.getState().open(video('a'), thumbnail);
    store.getState().add(shot(2));
    store.getState().add(shot(4));
    const last = store.getState().record?.screenshots.at(-1);
    store.getState().remove(last?.id ?? '');
    expect(store.getState().record?.screenshots.map((s) => s.timestamp)).toEqual([null, 2]);
    expect(store.getState().record?.screenshot_timestamp).toBe(2);
    store.getState().remove('no-such-id');
    expect(store.getState().record?.screenshots).toHaveLength(2);
  });

  it('reopening the same video restores its screenshots; another video starts over', async () => {
    const { persistence } = memoryPersistence();
    const first = createPendingMerchStore(persistence);
    await first.getState().open(video('a'), thumbnail);
    first.getState().add(shot(3, 'wasm'));
    await settle();

    // A reload: a new store over the same storage.
    const reloaded = createPendingMerchStore(persistence);
    await reloaded.getState().open(video('a'), () => Promise.reject(new Error('the thumbnail must not be fetched again')));
    expect(reloaded.getState().record?.screenshots.map((s) => [s.source, s.timestamp])).toEqual([
      ['thumbnail', null],
      ['wasm', 3],
    ]);

    await reloaded.getState().open(video('b'), thumbnail);
    await settle();
    expect(reloaded.getState().record?.videoId).toBe('b');
    expect(reloaded.getState().record?.screenshots.map((s) => s.source)).toEqual(['thumbnail']);
  });

  it('a capture made while the thumbnail loads stays after it', async () => {
    const store = createPendingMerchStore(memoryPersistence().persistence);
    let deliver: (s: ReadyScreenshot) => void = () => undefined;
    const opened = store.getState().open(video('a'), () => new Promise((resolve) => (deliver = resolve)));
    await settle();
    store.getState().add(shot(5));
    deliver(shot(null, 'thumbnail'));
    await opened;
    expect(store.getState().record?.screenshots.map((s) => s.source)).toEqual(['thumbnail', 'canvas']);
  });

  it('an older open() that finishes late does not overwrite the newer video', async () => {
    const store = createPendingMerchStore(memoryPersistence().persistence);
    let deliverA: (s: ReadyScreenshot) => void = () => undefined;
    const openA = store.getState().open(video('a'), () => new Promise((resolve) => (deliverA = resolve)));
    await settle();
    await store.getState().open(video('b'), noThumbnail);
    deliverA(shot(null, 'thumbnail'));
    await openA;
    expect(store.getState().record?.videoId).toBe('b');
    expect(store.getState().record?.screenshots).toEqual([]);
  });

  it('drops an old-format or damaged stored record and starts cleanly', async () => {
    const legacy = { thumbnail: '/t.jpg', videoUrl: '/v.mp4', screenshots: ['data:image/jpeg;base64,AAAA'], videoTitle: 'Old', creatorName: 'Ada' };
    const { map, persistence } = memoryPersistence({ ...legacy, videoId: 'a' });
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), noThumbnail);
    await settle();
    expect(store.getState().record?.screenshots).toEqual([]);
    expect((map.get('record') as StoredPendingMerch).version).toBe(PENDING_MERCH_VERSION);
  });

  it('keeps working from memory when the storage fails', async () => {
    const persistence: PendingMerchPersistence = {
      load: () => Promise.reject(new Error('IndexedDB is not available')),
      save: () => Promise.reject(new Error('QuotaExceededError')),
      clear: () => Promise.resolve(),
    };
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), thumbnail);
    expect(store.getState().add(shot(1))).toBe(true);
    await settle();
    expect(store.getState().record?.screenshots).toHaveLength(2);
    expect(store.getState().saveError).toBe('QuotaExceededError');
  });
});

/** A full-resolution image still being encoded, resolved or failed by the test. */
function encoding() {
  let resolve: (blob: Blob) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<Blob>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const preview = (label: string) => new Blob([`preview of ${label}`], { type: 'image/jpeg' });
const full = (label: string) => new Blob([`full frame ${label}`], { type: 'image/jpeg' });

describe('a capture shown from its preview while its full image is encoded', () => {
  it('shows the preview at once, stores the screenshot only with its full image, and keeps both', async () => {
    const { map, persistence } = memoryPersistence();
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), thumbnail);
    await settle();
    const jpeg = encoding();
    expect(store.getState().add({ blob: jpeg.promise, preview: preview('a'), width: 1920, height: 1080, source: 'canvas', timestamp: 2.5 })).toBe(true);

    // In memory at once, from its preview; not stored yet, and not sent by Make Merch yet.
    const shown = store.getState().record?.screenshots.at(-1);
    expect(shown).toMatchObject({ blob: null, width: 1920, height: 1080, source: 'canvas', timestamp: 2.5 });
    expect(await shown?.preview?.text()).toBe('preview of a');
    expect(store.getState().record?.screenshot_timestamp).toBe(2.5);
    await settle();
    expect((map.get('record') as StoredPendingMerch).screenshots.map((s) => s.source)).toEqual(['thumbnail']);
    let completed = false;
    const whenComplete = store
      .getState()
      .whenComplete()
      .then((record) => {
        completed = true;
        return record;
      });
    await settle();
    expect(completed).toBe(false);

    jpeg.resolve(full('a'));
    const record = await whenComplete;
    const done = record?.screenshots.at(-1);
    expect(await done?.blob?.text()).toBe('full frame a');
    expect(await done?.preview?.text()).toBe('preview of a');
    expect(done?.id).toBe(shown?.id);
    await settle();
    const stored = (map.get('record') as StoredPendingMerch).screenshots.at(-1);
    expect(stored?.blob).toBeInstanceOf(Blob);
    expect(await stored?.blob?.text()).toBe('full frame a');
    expect(await stored?.preview?.text()).toBe('preview of a');

    // A reload shows it again from its preview, with the full image beside it.
    const reloaded = createPendingMerchStore(persistence);
    await reloaded.getState().open(video('a'), noThumbnail);
    const again = reloaded.getState().record?.screenshots.at(-1);
    expect(await again?.preview?.text()).toBe('preview of a');
    expect(await again?.blob?.text()).toBe('full frame a');
    expect(reloaded.getState().record?.screenshot_timestamp).toBe(2.5);
  });

  it('a screenshot deleted while its full image is encoded stays deleted', async () => {
    const { map, persistence } = memoryPersistence();
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), thumbnail);
    store.getState().add(shot(1));
    const jpeg = encoding();
    store.getState().add({ blob: jpeg.promise, preview: preview('b'), width: 1920, height: 1080, source: 'canvas', timestamp: 4 });
    const id = store.getState().record?.screenshots.at(-1)?.id ?? '';
    store.getState().remove(id);
    expect(store.getState().record?.screenshot_timestamp).toBe(1);
    jpeg.resolve(full('b'));
    expect((await store.getState().whenComplete())?.screenshots.map((s) => s.timestamp)).toEqual([null, 1]);
    await settle();
    expect(store.getState().record?.screenshots.map((s) => s.id)).not.toContain(id);
    expect((map.get('record') as StoredPendingMerch).screenshots.map((s) => s.timestamp)).toEqual([null, 1]);
  });

  it('a screenshot whose full image fails is taken out again', async () => {
    const { map, persistence } = memoryPersistence();
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), thumbnail);
    const jpeg = encoding();
    store.getState().add({ blob: jpeg.promise, preview: preview('c'), width: 1280, height: 720, source: 'canvas', timestamp: 3 });
    expect(store.getState().record?.screenshots).toHaveLength(2);
    jpeg.reject(new Error('The canvas could not encode the frame'));
    await store.getState().whenComplete();
    await settle();
    expect(store.getState().record?.screenshots.map((s) => s.source)).toEqual(['thumbnail']);
    expect(store.getState().record?.screenshot_timestamp).toBeNull();
    expect((map.get('record') as StoredPendingMerch).screenshots.map((s) => s.source)).toEqual(['thumbnail']);
  });

  it('a screenshot still encoding takes its slot: the limit counts it', async () => {
    const store = createPendingMerchStore(memoryPersistence().persistence);
    await store.getState().open(video('a'), thumbnail);
    for (let i = 1; i < MAX_SCREENSHOTS - 1; i++) store.getState().add(shot(i));
    const jpeg = encoding();
    expect(store.getState().add({ blob: jpeg.promise, preview: preview('d'), width: 1280, height: 720, source: 'canvas', timestamp: 9 })).toBe(true);
    expect(store.getState().add(shot(10))).toBe(false);
    jpeg.resolve(full('d'));
    expect((await store.getState().whenComplete())?.screenshots).toHaveLength(MAX_SCREENSHOTS);
  });

  it('a full image arriving after another video was opened does not touch that video', async () => {
    const { map, persistence } = memoryPersistence();
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), noThumbnail);
    const jpeg = encoding();
    store.getState().add({ blob: jpeg.promise, preview: preview('e'), width: 1280, height: 720, source: 'canvas', timestamp: 1 });
    await store.getState().open(video('b'), noThumbnail);
    jpeg.resolve(full('e'));
    await store.getState().whenComplete();
    await settle();
    expect(store.getState().record?.videoId).toBe('b');
    expect(store.getState().record?.screenshots).toEqual([]);
    expect((map.get('record') as StoredPendingMerch).screenshots).toEqual([]);
  });

  it('a record stored before previews existed still loads, and its slots show the full image', async () => {
    const old = {
      version: PENDING_MERCH_VERSION,
      ...video('a'),
      screenshots: [
        { id: 't', blob: full('thumb'), width: 640, height: 360, source: 'thumbnail', timestamp: null },
        { id: 's', blob: full('old'), width: 1920, height: 1080, source: 'canvas', timestamp: 5 },
      ],
      screenshot_timestamp: 5,
    };
    const { persistence } = memoryPersistence(old);
    const store = createPendingMerchStore(persistence);
    await store.getState().open(video('a'), () => Promise.reject(new Error('the thumbnail must not be fetched again')));
    const shots = store.getState().record?.screenshots ?? [];
    expect(shots.map((s) => [s.id, s.preview])).toEqual([
      ['t', undefined],
      ['s', undefined],
    ]);
    expect(await shots[1]?.blob?.text()).toBe('full frame old');
  });

  it('stores only screenshots that have their full image, with the newest stored capture time', () => {
    const record = {
      ...video('a'),
      screenshots: [
        { id: 'a', ...shot(1) },
        { id: 'b', ...shot(2), blob: null, preview: preview('b') },
      ],
      screenshot_timestamp: 2,
    };
    const stored = toStored(record);
    expect(stored.screenshots.map((s) => s.id)).toEqual(['a']);
    expect(stored.screenshot_timestamp).toBe(1);
    expect(parseStored(stored)?.screenshots).toHaveLength(1);
  });
});

describe('parseStored', () => {
  const valid = (): StoredPendingMerch => ({
    version: PENDING_MERCH_VERSION,
    ...video('a'),
    screenshots: [{ id: 's1', ...shot(1.25) }],
    screenshot_timestamp: 1.25,
  });

  it('accepts a current record', () => {
    expect(parseStored(valid())?.screenshots[0]?.timestamp).toBe(1.25);
  });

  it.each([
    ['nothing', undefined],
    ['a string', 'pending'],
    ['no version', { ...valid(), version: undefined }],
    ['a newer version', { ...valid(), version: PENDING_MERCH_VERSION + 1 }],
    ['a data URL screenshot', { ...valid(), screenshots: ['data:image/jpeg;base64,AAAA'] }],
    ['a missing full image', { ...valid(), screenshots: [{ ...valid().screenshots[0], blob: null, preview: new Blob(['p']) }] }],
    ['a preview that is not a Blob', { ...valid(), screenshots: [{ ...valid().screenshots[0], preview: 'data:image/jpeg;base64,AAAA' }] }],
    ['an unknown source', { ...valid(), screenshots: [{ ...valid().screenshots[0], source: 'camera' }] }],
    ['a zero width', { ...valid(), screenshots: [{ ...valid().screenshots[0], width: 0 }] }],
    ['a negative timestamp', { ...valid(), screenshots: [{ ...valid().screenshots[0], timestamp: -1 }] }],
    ['seven screenshots', { ...valid(), screenshots: Array.from({ length: 7 }, (_, i) => ({ ...valid().screenshots[0], id: `s${i}` })) }],
    ['duplicate ids', { ...valid(), screenshots: [valid().screenshots[0], valid().screenshots[0]] }],
    ['no video id', { ...valid(), videoId: '' }],
  ])('drops %s', (_name, value) => {
    expect(parseStored(value)).toBeNull();
  });
});
