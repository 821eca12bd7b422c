import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_MESSAGES } from '../../../shared/schemas/channels.ts';
import { DEMO_CREATORS, DEMO_VIDEOS } from '../../seed/demo-content.ts';
import type { TestApp } from '../../test/harness.ts';
import { seededApp } from '../../test/seeded.ts';
import { multipart, signedInCreator, testMedia } from '../../test/upload-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await seededApp();
});
afterAll(async () => t?.close());

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json(), res };
};

describe('channels and profiles', () => {
  it("shows a channel with its creator's visible videos, newest first", async () => {
    const { status, body } = await get('/api/channels/PixelPete');
    expect(status).toBe(200);
    expect(body.channel).toMatchObject({ username: 'pixelpete', display_name: 'Pixel Pete', bio: 'Retro game runs and speed tricks.' });
    const expected = DEMO_VIDEOS.filter((v) => v.creator === 'pixelpete').sort((a, b) => a.ageHours - b.ageHours).map((v) => v.title);
    expect(body.videos.map((v: { title: string }) => v.title)).toEqual(expected);
    expect((await get('/api/channels/nobody')).body).toMatchObject({ code: 'NOT_FOUND', error: CHANNEL_MESSAGES.channelFailed });
  });

  it('hides a rejected video from the channel', async () => {
    const pete = await t.db.selectFrom('users').select('id').where('username', '=', 'pixelpete').executeTakeFirstOrThrow();
    const one = await t.db.selectFrom('videos').select('id').where('user_id', '=', pete.id).executeTakeFirstOrThrow();
    await t.db.updateTable('videos').set({ verification_status: 'rejected' }).where('id', '=', one.id).execute();
    const { body } = await get('/api/channels/pixelpete');
    expect(body.videos.map((v: { id: string }) => v.id)).not.toContain(one.id);
    await t.db.updateTable('videos').set({ verification_status: 'approved' }).where('id', '=', one.id).execute();
  });

  it('exposes only the public profile fields', async () => {
    const { status, body } = await get('/api/profiles/lunatunes');
    expect(status).toBe(200);
    expect(Object.keys(body.profile).sort()).toEqual(['bio', 'cover_image_url', 'created_at', 'display_name', 'id', 'profile_image_url']);
    expect(body.videos.length).toBeGreaterThan(0);
    expect((await get('/api/profiles/nobody')).body.error).toBe(CHANNEL_MESSAGES.userNotFound);
  });
});

describe('GET /api/creators/newest (the sidebar)', () => {
  const newest = async () => ((await get('/api/creators/newest')).body.creators as Array<{ username: string }>).map((c) => c.username);

  it('lists only creators with a listed video: none, pending, rejected or hidden ones do not count', async () => {
    const fresh = await t.db
      .insertInto('users')
      .values({ email: 'novideos@example.com', username: 'novideos', display_name: 'No Videos Yet', role: 'creator' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await newest()).not.toContain('novideos');

    const video = await t.db
      .insertInto('videos')
      .values({ user_id: fresh.id, title: 'Waiting for review', video_key: 'novideos/one.mp4', content_type: 'video/mp4', size_bytes: 1000, verification_status: 'pending' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await newest()).not.toContain('novideos');
    await t.db.updateTable('videos').set({ verification_status: 'rejected' }).where('id', '=', video.id).execute();
    expect(await newest()).not.toContain('novideos');

    await t.db.updateTable('videos').set({ verification_status: 'approved' }).where('id', '=', video.id).execute();
    const listed = await newest();
    expect(listed[0]).toBe('novideos');
    expect(listed).toHaveLength(10);

    await t.db.deleteFrom('videos').where('id', '=', video.id).execute();
    await t.db.deleteFrom('users').where('id', '=', fresh.id).execute();
  });
});

describe('GET /api/search/channels', () => {
  it('needs 2 characters after trimming', async () => {
    for (const q of ['', ' ', 'a', ' a ']) {
      const { status, body } = await get(`/api/search/channels?q=${encodeURIComponent(q)}`);
      expect(status).toBe(400);
      expect(body.error).toBe(CHANNEL_MESSAGES.searchTooShort);
    }
  });

  it('finds channels by slug or name, the best match first, and treats wildcards as text', async () => {
    expect((await get('/api/search/channels?q=pixel')).body.channels[0]).toMatchObject({ username: 'pixelpete', video_count: 2 });
    expect((await get('/api/search/channels?q=Luna%20Tunes')).body.channels[0].username).toBe('lunatunes');
    expect((await get('/api/search/channels?q=%25%25')).body.channels).toEqual([]);
    expect((await get('/api/search/channels?q=__')).body.channels).toEqual([]);
    const all = (await get('/api/search/channels?q=e')).status;
    expect(all).toBe(400);
    expect(DEMO_CREATORS.length).toBeGreaterThan(2);
  });
});

describe('POST /api/videos/:id/views', () => {
  it('counts a view once per viewer session', async () => {
    const video = (await get('/api/videos?limit=1')).body.videos[0] as { id: string; view_count: number };
    const first = await t.app.inject({ method: 'POST', url: `/api/videos/${video.id}/views` });
    expect(first.json()).toEqual({ success: true, counted: true, view_count: video.view_count + 1 });
    const cookie = (first.cookies as Array<{ name: string; value: string; httpOnly?: boolean; expires?: Date }>).find((c) => c.name === 'fm_viewer')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.expires).toBeUndefined();
    const again = await t.app.inject({ method: 'POST', url: `/api/videos/${video.id}/views`, cookies: { fm_viewer: cookie.value } });
    expect(again.json()).toEqual({ success: true, counted: false, view_count: video.view_count + 1 });
    const other = await t.app.inject({ method: 'POST', url: `/api/videos/${video.id}/views` });
    expect(other.json().view_count).toBe(video.view_count + 2);
    expect((await t.app.inject({ method: 'POST', url: '/api/videos/00000000-0000-4000-8000-000000000000/views' })).statusCode).toBe(404);
  });
});

describe('studio: profile and the spec user calls', () => {
  it('edits the name and bio, uploads an avatar as a re-encoded JPEG, and refuses non-images and big files', async () => {
    const me = await signedInCreator(t, 'studiouser');
    const patch = await t.app.inject({ method: 'PATCH', url: '/api/studio/profile', payload: { display_name: 'Studio User', bio: 'Hello there' }, headers: me.headers, cookies: me.cookies });
    expect(patch.json().profile).toMatchObject({ display_name: 'Studio User', bio: 'Hello there', tier: 'free' });
    expect((await get('/api/profiles/studiouser')).body.profile).toMatchObject({ display_name: 'Studio User', bio: 'Hello there' });

    const image = async (kind: string, bytes: Buffer) => {
      const { payload, headers } = await multipart([{ name: 'image', value: bytes, filename: 'me.png', type: 'image/png' }]);
      return t.app.inject({ method: 'POST', url: `/api/studio/profile/${kind}`, payload, headers: { ...headers, ...me.headers }, cookies: me.cookies });
    };
    const ok = await image('avatar', await testMedia('thumbnail.jpg'));
    expect(ok.statusCode).toBe(200);
    const url = ok.json().profile.profile_image_url as string;
    expect(url).toMatch(/^\/media\/profile-images\/[0-9a-f]{2}\/[0-9a-f-]{36}\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.headers['content-type']).toBe('image/jpeg');
    const second = await image('avatar', await testMedia('thumbnail.jpg'));
    expect(second.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);

    const svg = await image('cover', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'));
    expect(svg.statusCode).toBe(415);
    expect(svg.json().error).toBe('Please select a valid image file.');
    const big = await image('cover', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(5 * 1024 * 1024 + 10)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('File size must be less than 5MB.');
  });

  it('believes only the session in ensure-exists, and changes the channel slug on update-channel', async () => {
    const me = await signedInCreator(t, 'slugger');
    const ensure = await t.app.inject({ method: 'POST', url: '/api/users/ensure-exists', payload: { user_id: 'someone-else', email: 'x@y.z' }, headers: me.headers, cookies: me.cookies });
    expect(ensure.json().user).toEqual({ id: me.user.id, email: 'slugger@example.com' });
    const update = (slug: string) => t.app.inject({ method: 'POST', url: '/api/users/update-channel', payload: { channel_slug: slug, user_id: 'ignored' }, headers: me.headers, cookies: me.cookies });
    const ok = await update('newslug');
    expect(ok.json()).toMatchObject({ channel_slug: 'newslug', channel_url: 'http://localhost:3000/channel/newslug' });
    expect((await update('pixelpete')).statusCode).toBe(409);
    expect((await update('Bad Slug')).statusCode).toBe(400);
  });

  it('describes a stored video by URL or id, and only stored ones', async () => {
    const video = (await get('/api/videos?limit=1')).body.videos[0] as { id: string };
    const byId = await get(`/api/video-info?id=${video.id}`);
    expect(byId.body.video).toMatchObject({ id: video.id, content_type: 'video/mp4', width: 1280, height: 720 });
    const byUrl = await get(`/api/video-info?video_url=${encodeURIComponent(`http://localhost:3000${byId.body.video.video_url}`)}`);
    expect(byUrl.body.video.id).toBe(video.id);
    expect((await get(`/api/video-info?video_url=${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`)).status).toBe(400);
    expect((await get('/api/video-info?video_url=file%3A%2F%2F%2Fetc%2Fpasswd')).status).toBe(400);
  });
});

describe('a multipart body on a JSON route', () => {
  it('is refused, not crashed on', async () => {
    const { payload, headers } = await multipart([{ name: 'x', value: 'y' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload, headers });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
