import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '../../../shared/schemas/moderation.ts';
import type { VerificationStatus } from '../../platform/db/schema.ts';
import { newKey } from '../../platform/storage/object-storage.ts';
import { ORIGIN } from '../../test/browser.ts';
import { merchProduct, shopOrder, listKeys } from '../../test/fulfilment-helpers.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { JOB_KINDS, enqueueJob } from '../../platform/jobs/enqueue.ts';
import { person, type Person } from '../../test/subscription-support.ts';
import { multipart, testMedia, uploadParts } from '../../test/upload-helpers.ts';

let t: TestApp;
let admin: Person;
let maker: Person;
let viewer: Person;
let clip: Buffer;
let thumb: Buffer;

beforeAll(async () => {
  t = await testApp();
  admin = await person(t, 'customer', 'admin');
  await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', admin.id).execute();
  maker = await person(t, 'creator', 'maker');
  viewer = await person(t, 'customer', 'viewer');
  clip = await testMedia('h264-small.mp4');
  thumb = await testMedia('thumbnail.jpg');
});
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(as: Person | null, method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    headers: method === 'GET' ? {} : { origin: ORIGIN },
    ...(as ? { cookies: as.cookies } : {}),
  });
}

async function upload(as: Person, title: string): Promise<string> {
  const { payload, headers } = await multipart(uploadParts(clip, thumb, { title }));
  const res = await t.app.inject({ method: 'POST', url: '/api/videos', payload, headers: { ...headers, origin: ORIGIN }, cookies: as.cookies });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().video.id as string;
}

const setModeration = async (on: boolean) => expect((await call(admin, 'PUT', '/api/admin/settings/moderation_required', { value: on })).statusCode).toBe(200);
const row = (id: string) => t.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const videoLogs = (id: string) => t.db.selectFrom('admin_logs').select(['admin_user_id', 'action_type', 'target_type', 'details']).where('target_id', '=', id).orderBy('id').execute();
const ids = (res: LightMyRequestResponse) => (res.json().videos as { id: string }[]).map((v) => v.id);

/** Where a video shows for this person: the feed, its channel, its profile, the search's count, its page and its file. */
async function seenBy(as: Person | null, id: string) {
  const video = await row(id);
  const feed = ids(await call(as, 'GET', '/api/videos?limit=100'));
  const channel = ids(await call(as, 'GET', `/api/channels/${maker.username}`));
  const profile = ids(await call(as, 'GET', `/api/profiles/${maker.username}`));
  const search = (await call(as, 'GET', `/api/search/channels?q=${maker.username}`)).json().channels.find((c: { username: string }) => c.username === maker.username);
  const page = await call(as, 'GET', `/api/videos/${id}`);
  const file = await call(as, 'GET', `/media/videos/${video.video_key}`);
  return {
    listed: { feed: feed.includes(id), channel: channel.includes(id), profile: profile.includes(id) },
    searchCount: search?.video_count as number,
    page: page.statusCode,
    file: file.statusCode === 200 ? String(file.headers['cache-control']) : file.statusCode,
  };
}

const NOT_LISTED = { feed: false, channel: false, profile: false };
const LISTED = { feed: true, channel: true, profile: true };

describe('moderation of new uploads', () => {
  it('with moderation required, an upload waits unlisted, its owner and admins alone see it; approved it is listed; rejected hidden again', async () => {
    await setModeration(true);
    const id = await upload(maker, 'Awaiting review');
    expect((await row(id)).verification_status).toBe('pending');

    const countBefore = (await seenBy(null, id)).searchCount;
    for (const as of [null, viewer]) {
      expect(await seenBy(as, id)).toEqual({ listed: NOT_LISTED, searchCount: countBefore, page: 404, file: 404 });
    }
    // Its owner and the admins see its page and play its file (never cached on the way), though it is listed nowhere.
    for (const as of [maker, admin]) expect(await seenBy(as, id)).toEqual({ listed: NOT_LISTED, searchCount: countBefore, page: 200, file: 'private, no-store' });
    expect((await call(maker, 'GET', `/api/videos/${id}`)).json().video.verification_status).toBe('pending');
    expect(ids(await call(maker, 'GET', '/api/studio/videos'))).toContain(id);

    const pendingList = await call(admin, 'GET', '/api/admin/videos?status=pending');
    expect(pendingList.json().videos.find((v: { id: string }) => v.id === id)).toMatchObject({
      title: 'Awaiting review',
      verification_status: 'pending',
      creator: { id: maker.id, username: maker.username, display_name: 'Person maker' },
    });
    expect(ids(await call(admin, 'GET', '/api/admin/videos?status=approved'))).not.toContain(id);

    const approved = await call(admin, 'POST', `/api/admin/videos/${id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().video).toMatchObject({ id, verification_status: 'approved' });
    for (const as of [null, viewer, maker]) expect(await seenBy(as, id)).toEqual({ listed: LISTED, searchCount: countBefore + 1, page: 200, file: 'public, max-age=31536000, immutable' });
    const again = await call(admin, 'POST', `/api/admin/videos/${id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, error: MODERATION_MESSAGES.alreadyApproved, code: 'CONFLICT' });

    const rejected = await call(admin, 'POST', `/api/admin/videos/${id}/reject`);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().video.verification_status).toBe('rejected');
    for (const as of [null, viewer]) expect(await seenBy(as, id)).toEqual({ listed: NOT_LISTED, searchCount: countBefore, page: 404, file: 404 });
    for (const as of [maker, admin]) expect((await seenBy(as, id)).page).toBe(200);
    expect(ids(await call(admin, 'GET', '/api/admin/videos?status=rejected'))).toContain(id);
    const rejectAgain = await call(admin, 'POST', `/api/admin/videos/${id}/reject`);
    expect(rejectAgain.statusCode).toBe(409);
    expect(rejectAgain.json().error).toBe(MODERATION_MESSAGES.alreadyRejected);

    expect(await videoLogs(id)).toEqual([
      { admin_user_id: admin.id, action_type: 'approve_video', target_type: 'video', details: { old: 'pending', new: 'approved' } },
      { admin_user_id: admin.id, action_type: 'reject_video', target_type: 'video', details: { old: 'approved', new: 'rejected' } },
    ]);
    await setModeration(false);
  });

  it('with moderation required, a resumable upload waits too', async () => {
    await setModeration(true);
    const tus = (method: 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: Buffer) =>
      t.app.inject({ method, url, headers: { origin: ORIGIN, 'tus-resumable': '1.0.0', ...headers }, cookies: maker.cookies, ...(payload ? { payload } : {}) });
    const created = await tus('POST', '/api/uploads', { 'upload-length': String(clip.length) });
    expect(created.statusCode, created.body).toBe(201);
    const uploadId = String(created.headers.location).split('/').pop()!;
    const sent = await tus('PATCH', `/api/uploads/${uploadId}`, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, clip);
    expect(sent.statusCode, sent.body).toBe(204);
    const { payload, headers } = await multipart([
      { name: 'upload_id', value: uploadId },
      { name: 'title', value: 'Resumed, awaiting review' },
      { name: 'description', value: 'Sent in pieces' },
      { name: 'thumbnail', value: thumb, filename: 't.jpg', type: 'image/jpeg' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/videos/resumable', payload, headers: { ...headers, origin: ORIGIN }, cookies: maker.cookies });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().video.id as string;
    expect((await row(id)).verification_status).toBe('pending');
    expect((await seenBy(null, id)).listed).toEqual(NOT_LISTED);
    expect((await seenBy(maker, id)).page).toBe(200);
    await setModeration(false);
  });

  it('with moderation off, an upload is verified at sign-in and listed at once; it counts as approved', async () => {
    await setModeration(false);
    const id = await upload(maker, 'Straight in');
    expect((await row(id)).verification_status).toBe('verified_via_supabase_auth');
    expect((await seenBy(null, id)).listed).toEqual(LISTED);
    expect(ids(await call(admin, 'GET', '/api/admin/videos?status=approved'))).toContain(id);
    const res = await call(admin, 'POST', `/api/admin/videos/${id}/approve`);
    expect(res.statusCode).toBe(409);
    expect(await videoLogs(id)).toEqual([]);
  });

  it('refuses anyone but an admin (401 signed out, 403 otherwise, the owner included), changing nothing', async () => {
    await setModeration(true);
    const id = await upload(maker, 'Not yours to judge');
    await setModeration(false);
    const before = { row: await row(id), logs: (await t.db.selectFrom('admin_logs').select('id').execute()).length };
    const file = await t.storage.stat('videos', before.row.video_key);
    for (const [as, status] of [[null, 401], [viewer, 403], [maker, 403]] as const) {
      for (const [method, url] of [
        ['GET', '/api/admin/videos'],
        ['POST', `/api/admin/videos/${id}/approve`],
        ['POST', `/api/admin/videos/${id}/reject`],
        ['DELETE', `/api/admin/videos/${id}`],
      ] as const) {
        const res = await call(as, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(status);
      }
    }
    expect({ row: await row(id), logs: (await t.db.selectFrom('admin_logs').select('id').execute()).length }).toEqual(before);
    expect(await t.storage.stat('videos', before.row.video_key)).toEqual(file);
  });

  it('answers 404 for a video that does not exist', async () => {
    const none = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['POST', `/api/admin/videos/${none}/approve`],
      ['POST', `/api/admin/videos/${none}/reject`],
      ['DELETE', `/api/admin/videos/${none}`],
    ] as const) {
      const res = await call(admin, method, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(MODERATION_MESSAGES.videoNotFound);
    }
  });
});

describe('DELETE /api/admin/videos/:id', () => {
  it("removes the video and its files, the merch made from it and its frames; an order already with the print shop keeps its print file", async () => {
    const deps = { db: t.db, storage: t.storage, catalogue: t.app.catalogue };
    const product = await merchProduct(deps);
    // The video's own files, stored as an upload stores them.
    const thumbKey = newKey('jpg');
    const video = await t.db.selectFrom('videos').select('video_key').where('id', '=', product.videoId).executeTakeFirstOrThrow();
    await t.storage.put('videos', video.video_key, clip);
    await t.storage.put('thumbnails', thumbKey, thumb);
    await t.db.updateTable('videos').set({ thumbnail_key: thumbKey, poster_key: thumbKey }).where('id', '=', product.videoId).execute();

    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await enqueueJob(t.db, JOB_KINDS.fulfilOrder, { orderId }, { dedupeKey: `fulfil:${orderId}` });
    await t.app.jobs.runDue();
    const item = await t.db.selectFrom('order_items').select(['print_file_key', 'screenshot_id']).where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(item.print_file_key).toBeTruthy();
    const prints = await listKeys(t.storage, 'prints');
    const screenshots = await listKeys(t.storage, 'screenshots');
    const frames = (await t.db.selectFrom('merch_screenshots').select('storage_key').where('merch_product_id', '=', product.productId).execute()).map((r) => r.storage_key);
    expect(frames.length).toBeGreaterThan(0);
    expect(prints).toContain(item.print_file_key);

    const res = await call(admin, 'DELETE', `/api/admin/videos/${product.videoId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });

    expect(await t.db.selectFrom('videos').select('id').where('id', '=', product.videoId).executeTakeFirst()).toBeUndefined();
    expect(await t.storage.stat('videos', video.video_key)).toBeNull();
    expect(await t.storage.stat('thumbnails', thumbKey)).toBeNull();
    // The order, already with the print shop, keeps its print file; the product and its frames go with the video.
    expect(await listKeys(t.storage, 'prints')).toEqual(prints);
    expect(await listKeys(t.storage, 'screenshots')).toEqual(screenshots.filter((k) => !frames.includes(k)));
    expect(await t.db.selectFrom('order_items').select(['print_file_key', 'screenshot_id', 'video_id']).where('order_id', '=', orderId).executeTakeFirstOrThrow()).toEqual({
      print_file_key: item.print_file_key,
      screenshot_id: null,
      video_id: null,
    });
    expect(await t.db.selectFrom('merch_products').select('id').where('id', '=', product.productId).executeTakeFirst()).toBeUndefined();
    expect(await videoLogs(product.videoId)).toEqual([
      { admin_user_id: admin.id, action_type: 'delete_video', target_type: 'video', details: { title: expect.any(String), creator_id: product.creatorId, verification_status: 'verified_via_supabase_auth' } },
    ]);
    const twice = await call(admin, 'DELETE', `/api/admin/videos/${product.videoId}`);
    expect(twice.statusCode).toBe(404);
  });
});

describe('GET /api/admin/videos', () => {
  it('pages newest first, each row once, by status and text, whatever the page size', async () => {
    const owner = await person(t, 'creator', 'pager');
    const statuses: VerificationStatus[] = ['pending', 'approved', 'rejected', 'verified_via_supabase_auth'];
    // Several rows share a timestamp, and others differ by a microsecond, so the cursor must keep both.
    const base = Date.parse('2020-01-01T00:00:00Z');
    const made: string[] = [];
    for (let i = 0; i < 45; i++) {
      const at = i % 5 === 0 ? `2020-01-01T00:00:0${i % 3}.000000Z` : new Date(base + Math.floor(i / 2) * 1000).toISOString().replace('Z', `${String(i % 7).padStart(3, '0')}Z`);
      const r = await t.db
        .insertInto('videos')
        .values({ user_id: owner.id, title: `Pager clip ${i}`, video_key: newKey('mp4'), content_type: 'video/mp4', size_bytes: 1000, verification_status: statuses[i % 4]!, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      made.push(r.id);
    }
    const expected = async (status: string | null) => {
      const rows = await t.db
        .selectFrom('videos')
        .select('id')
        .where('user_id', '=', owner.id)
        .$if(status === 'approved', (q) => q.where('verification_status', 'in', ['approved', 'verified_via_supabase_auth']))
        .$if(status === 'pending' || status === 'rejected', (q) => q.where('verification_status', '=', status as VerificationStatus))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((r) => r.id);
    };
    for (const status of [null, 'pending', 'approved', 'rejected'] as const) {
      for (const limit of [1, 7, 20, 100]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const qs = new URLSearchParams({ q: 'pager', limit: String(limit), ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) });
          const res = await call(admin, 'GET', `/api/admin/videos?${qs}`);
          expect(res.statusCode, res.body).toBe(200);
          const page = res.json();
          expect(page.videos.length).toBeLessThanOrEqual(limit);
          seen.push(...page.videos.map((v: { id: string }) => v.id));
          cursor = page.next_cursor;
          pages++;
        } while (cursor && pages < 100);
        expect(seen, `${status} by ${limit}`).toEqual(await expected(status));
      }
    }
    // 20 a page unless asked; more than 100 is refused.
    expect((await call(admin, 'GET', '/api/admin/videos?q=pager')).json().videos).toHaveLength(20);
    expect((await call(admin, 'GET', '/api/admin/videos?limit=101')).statusCode).toBe(400);
    expect(made).toHaveLength(45);
  });

  it('finds by title or creator, and refuses a forged cursor', async () => {
    const res = await call(admin, 'GET', `/api/admin/videos?q=${encodeURIComponent('Pager clip 44')}`);
    expect(res.json().videos.map((v: { title: string }) => v.title)).toEqual(['Pager clip 44']);
    const bad = await call(admin, 'GET', `/api/admin/videos?cursor=${Buffer.from('yesterday|nope').toString('base64url')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MODERATION_MESSAGES.badCursor);
  });
});

describe('the feed cache', () => {
  it('is invalidated by approving, rejecting and deleting', async () => {
    const cached = await testApp({ config: await testConfig({ READ_CACHE_MS: '600000' }) });
    try {
      const boss = await person(cached, 'customer', 'boss');
      await cached.db.updateTable('users').set({ is_admin: true }).where('id', '=', boss.id).execute();
      const owner = await person(cached, 'creator', 'cached');
      const v = await cached.db
        .insertInto('videos')
        .values({ user_id: owner.id, title: 'Cached clip', video_key: newKey('mp4'), content_type: 'video/mp4', size_bytes: 1000, verification_status: 'pending' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const feed = async () => ((await cached.app.inject({ url: '/api/videos' })).json().videos as { id: string }[]).map((x) => x.id);
      const act = (method: 'POST' | 'DELETE', url: string) => cached.app.inject({ method, url, headers: { origin: ORIGIN }, cookies: boss.cookies });
      expect(await feed()).not.toContain(v.id);
      expect((await act('POST', `/api/admin/videos/${v.id}/approve`)).statusCode).toBe(200);
      expect(await feed()).toContain(v.id);
      expect((await act('POST', `/api/admin/videos/${v.id}/reject`)).statusCode).toBe(200);
      expect(await feed()).not.toContain(v.id);
      expect((await act('POST', `/api/admin/videos/${v.id}/approve`)).statusCode).toBe(200);
      expect(await feed()).toContain(v.id);
      expect((await act('DELETE', `/api/admin/videos/${v.id}`)).statusCode).toBe(200);
      expect(await feed()).not.toContain(v.id);
    } finally {
      await cached.close();
    }
  });
});
