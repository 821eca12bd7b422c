import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREATORS, DEMO_VIDEOS } from '../../seed/demo-content.ts';
import type { TestApp } from '../../test/harness.ts';
import { seededApp } from '../../test/seeded.ts';

let t: TestApp;
beforeAll(async () => {
  t = await seededApp();
});
afterAll(async () => t?.close());

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() };
};

interface Card {
  id: string;
  title: string;
  category: string;
  created_at: string;
  channel_title: string;
  channel_slug: string;
  thumbnail_url: string;
  view_count: number;
  category_id: number;
}

describe('GET /api/videos (the home feed)', () => {
  it('lists the seeded videos newest first with their card fields', async () => {
    const { status, body } = await get('/api/videos');
    expect(status).toBe(200);
    const cards = body.videos as Card[];
    expect(cards).toHaveLength(DEMO_VIDEOS.length);
    const byAge = [...DEMO_VIDEOS].sort((a, b) => a.ageHours - b.ageHours).map((v) => v.title);
    expect(cards.map((c) => c.title)).toEqual(byAge);
    const times = cards.map((c) => Date.parse(c.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const first = cards[0]!;
    const demo = DEMO_VIDEOS.find((v) => v.title === first.title)!;
    const creator = DEMO_CREATORS.find((c) => c.username === demo.creator)!;
    expect(first).toMatchObject({
      channel_title: creator.displayName,
      channel_slug: creator.username,
      category: demo.category,
      view_count: demo.viewCount,
    });
    expect(first.category_id).toBeGreaterThan(0);
    expect(first.thumbnail_url).toMatch(/^\/media\/thumbnails\//);
    expect(body.next_cursor).toBeNull();
  });

  it('pages with a cursor, covering every video exactly once', async () => {
    const seen: string[] = [];
    let url = '/api/videos?limit=4';
    for (let page = 0; page < 10; page++) {
      const { body } = await get(url);
      seen.push(...(body.videos as Card[]).map((c) => c.id));
      if (!body.next_cursor) break;
      expect(body.videos).toHaveLength(4);
      url = `/api/videos?limit=4&before=${body.next_cursor}`;
    }
    expect(seen).toHaveLength(DEMO_VIDEOS.length);
    expect(new Set(seen).size).toBe(DEMO_VIDEOS.length);
  });

  it('filters by category', async () => {
    const { body } = await get('/api/videos?category=travel');
    const expected = DEMO_VIDEOS.filter((v) => v.category === 'travel').map((v) => v.title).sort();
    expect((body.videos as Card[]).map((c) => c.title).sort()).toEqual(expected);
    expect((body.videos as Card[]).every((c) => c.category === 'travel')).toBe(true);
    const all = await get('/api/videos?category=all');
    expect(all.body.videos).toHaveLength(DEMO_VIDEOS.length);
  });

  it('hides rejected videos and the videos of suspended creators', async () => {
    const target = (await get('/api/videos?limit=1')).body.videos[0] as Card;
    await t.db.updateTable('videos').set({ verification_status: 'rejected' }).where('id', '=', target.id).execute();
    const afterReject = (await get('/api/videos')).body.videos as Card[];
    expect(afterReject.map((c) => c.id)).not.toContain(target.id);
    expect((await get(`/api/videos/${target.id}`)).status).toBe(404);
    await t.db.updateTable('videos').set({ verification_status: 'approved' }).where('id', '=', target.id).execute();

    await t.db.updateTable('users').set({ status: 'suspended' }).where('username', '=', target.channel_slug).execute();
    const afterSuspend = (await get('/api/videos')).body.videos as Card[];
    expect(afterSuspend.some((c) => c.channel_slug === target.channel_slug)).toBe(false);
    await t.db.updateTable('users').set({ status: 'active' }).where('username', '=', target.channel_slug).execute();
    expect((await get('/api/videos')).body.videos).toHaveLength(DEMO_VIDEOS.length);
  });
});

describe('GET /api/videos/:id', () => {
  it('returns the video with playable media URLs', async () => {
    const card = (await get('/api/videos?limit=1')).body.videos[0] as Card;
    const { status, body } = await get(`/api/videos/${card.id}`);
    expect(status).toBe(200);
    expect(body.video).toMatchObject({ id: card.id, title: card.title, width: 1280, height: 720 });
    expect(body.video.video_url).toMatch(/^\/media\/videos\/demo\/demo-video-\d+\.mp4$/);
    const media = await t.app.inject({ method: 'GET', url: body.video.video_url, headers: { range: 'bytes=0-11' } });
    expect(media.statusCode).toBe(206);
    expect(media.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('says "Video not found." for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
      const { status, body } = await get(`/api/videos/${encodeURIComponent(id)}`);
      expect(status, id).toBe(404);
      expect(body).toEqual({ success: false, error: 'Video not found.', code: 'NOT_FOUND' });
    }
  });
});

describe('GET /api/creators/newest', () => {
  it('lists the 10 newest active creators, newest first', async () => {
    const { body } = await get('/api/creators/newest');
    const newest = [...DEMO_CREATORS].reverse().slice(0, 10).map((c) => c.username);
    expect(body.creators.map((c: { username: string }) => c.username)).toEqual(newest);
    expect(Object.keys(body.creators[0]).sort()).toEqual(['display_name', 'id', 'profile_image_url', 'username']);
  });

  it('leaves out customers, admins without the creator role and suspended creators', async () => {
    const newestName = DEMO_CREATORS[DEMO_CREATORS.length - 1]!.username;
    await t.db.updateTable('users').set({ status: 'suspended' }).where('username', '=', newestName).execute();
    const { body } = await get('/api/creators/newest');
    const names = body.creators.map((c: { username: string }) => c.username);
    expect(names).not.toContain(newestName);
    expect(names).not.toContain('admin');
    expect(names).toHaveLength(10);
    await t.db.updateTable('users').set({ status: 'active' }).where('username', '=', newestName).execute();
  });
});
