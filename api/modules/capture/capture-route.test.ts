import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness.ts';
import { seededApp } from '../../test/seeded.ts';

let t: TestApp;
let videoUrl: string;
beforeAll(async () => {
  t = await seededApp();
  const card = (await t.app.inject({ method: 'GET', url: '/api/videos?limit=1' })).json().videos[0];
  videoUrl = (await t.app.inject({ method: 'GET', url: `/api/videos/${card.id}` })).json().video.video_url;
});
afterAll(async () => t?.close());

const capture = (body: object) => t.app.inject({ method: 'POST', url: '/api/capture-screenshot', payload: body });

describe('POST /api/capture-screenshot', () => {
  it("returns the frame at the video's own resolution as a JPEG data URL", async () => {
    for (const url of [videoUrl, `${new URL(t.config.publicUrl).origin}${videoUrl}`]) {
      const res = await capture({ video_url: url, timestamp: 1.25, quality: 85 });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ success: true, width: 1280, height: 720, timestamp: 1.25 });
      const jpeg = Buffer.from(body.screenshot.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
      expect((await sharp(jpeg).metadata()).format).toBe('jpeg');
    }
  });

  it('never reaches outside the stored videos', async () => {
    for (const video_url of [
      'http://127.0.0.1:22/',
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
      'concat:/etc/hostname',
      '/etc/passwd',
      '/media/videos/../../pglite/PG_VERSION',
      '/media/thumbnails/demo/demo-video-01.jpg',
      `https://evil.example${videoUrl}`,
      `${videoUrl}?x=concat:/etc/passwd`,
    ]) {
      const res = await capture({ video_url, timestamp: 1 });
      expect(res.statusCode, video_url).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('says not found for an unknown video and refuses a time past the end', async () => {
    expect((await capture({ video_url: '/media/videos/ab/none.mp4', timestamp: 1 })).statusCode).toBe(404);
    const late = await capture({ video_url: videoUrl, timestamp: 99 });
    expect(late.statusCode).toBe(422);
    expect((await capture({ video_url: videoUrl, timestamp: -1 })).statusCode).toBe(400);
  });
});
