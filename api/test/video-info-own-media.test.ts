/**
 * GET /api/video-info describes only this site's own media: a /media/videos/ path, or an
 * absolute URL on this site's host. A URL on any other host is refused before anything is
 * looked up, even when its path names a stored video, and nothing is ever fetched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../modules/accounts/index.ts';
import { testApp, type TestApp } from './harness.ts';
import { makeVideo } from './webhook-support.ts';

let t: TestApp;
let videoId: string;
let videoPath: string;

beforeAll(async () => {
  t = await testApp();
  const creator = await createUser(t.db, { email: 'info@example.com', displayName: 'Info', role: 'creator', emailVerified: true });
  videoId = await makeVideo(t.db, creator.id, 'Stored here');
  const key = (await t.db.selectFrom('videos').select('video_key').where('id', '=', videoId).executeTakeFirstOrThrow()).video_key;
  videoPath = `/media/videos/${key}`;
});
afterAll(async () => t?.close());
afterEach(() => vi.restoreAllMocks());

const info = (videoUrl: string) =>
  t.app.inject({ method: 'GET', url: `/api/video-info?video_url=${encodeURIComponent(videoUrl)}`, headers: { host: 'localhost:3000' } });

describe('GET /api/video-info', () => {
  it("describes this site's own video by its path or by this site's URL", async () => {
    for (const url of [videoPath, `http://localhost:3000${videoPath}`]) {
      const res = await info(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().video.id, url).toBe(videoId);
    }
  });

  it('refuses a URL on another host, even one naming a stored video, and fetches nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    for (const url of [
      `https://evil.example${videoPath}`,
      `http://localhost:3000@evil.example${videoPath}`,
      `http://169.254.169.254${videoPath}`,
      `http://localhost:3001${videoPath}`,
      `//evil.example${videoPath}`,
      'http://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
    ]) {
      const res = await info(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toBe('video_url must be the URL of a video on this site.');
    }
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
