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
      // The full frame beside the preview: the same size, finer (products and print files use it).
      const full = Buffer.from(body.frame.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
      expect(await sharp(full).metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 720 });
      expect(full.length).toBeGreaterThan(jpeg.length);
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

  it("says not found, never 500, for a video whose file is gone from storage (deleted while it was read)", async () => {
    const key = new URL(videoUrl, 'http://x').pathname.replace('/media/videos/', '');
    const kept = await t.storage.read('videos', key);
    const bytes = Buffer.concat(await kept.toArray());
    await t.storage.delete('videos', key);
    try {
      for (const [url, body] of [
        ['/api/capture-screenshot', { video_url: videoUrl, timestamp: 1 }],
        ['/api/capture-multiple-screenshots', { video_url: videoUrl, timestamps: [1, 2] }],
      ] as const) {
        const res = await t.app.inject({ method: 'POST', url, payload: body });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
        expect(res.json()).toMatchObject({ success: false, error: 'Video not found.' });
      }
    } finally {
      await t.storage.put('videos', key, bytes);
    }
  });
});

const captureMany = (body: unknown) => t.app.inject({ method: 'POST', url: '/api/capture-multiple-screenshots', payload: body as object });

describe('POST /api/capture-multiple-screenshots', () => {
  it('answers each time in the order asked, each as the single capture answers it', async () => {
    const res = await captureMany({ video_url: videoUrl, timestamps: [2.5, 0, 1.25] });
    expect(res.statusCode, res.body).toBe(200);
    const { success, screenshots } = res.json();
    expect(success).toBe(true);
    expect(screenshots.map((s: { timestamp: number }) => s.timestamp)).toEqual([2.5, 0, 1.25]);
    for (const s of screenshots) {
      expect(s).toMatchObject({ width: 1280, height: 720 });
      expect(s.screenshot).toMatch(/^data:image\/jpeg;base64,/);
      expect(s.frame).toMatch(/^data:image\/jpeg;base64,/);
    }
    const single = (await capture({ video_url: videoUrl, timestamp: 1.25 })).json();
    expect(screenshots[2].frame).toBe(single.frame);
  });

  it('refuses malformed or out-of-range times with a clear 400, never a 500', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ video_url: videoUrl, timestamps: [] }, /timestamps/],
      [{ video_url: videoUrl, timestamps: [1, 2, 3, 4, 5, 6, 7] }, /timestamps/],
      [{ video_url: videoUrl, timestamps: [-1] }, /timestamps/],
      [{ video_url: videoUrl, timestamps: ['soon'] }, /timestamps/],
      [{ video_url: videoUrl, timestamps: [{}] }, /timestamps/],
      [{ video_url: videoUrl, timestamps: [1e308] }, /timestamps/],
      [{ video_url: videoUrl }, /timestamps/],
      [{ video_url: videoUrl, timestamps: [1, 99] }, /^Timestamp 2 \(99 s\) is past the end of the video\.$/],
    ];
    for (const [body, message] of cases) {
      const res = await captureMany(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ success: false, error: expect.stringMatching(message) });
    }
    for (const raw of ['{"video_url":"x","timestamps":[NaN]}', '{"video_url":"x","timestamps":[Infinity]}', '{"video_url":', 'null']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/capture-multiple-screenshots', headers: { 'content-type': 'application/json' }, payload: raw });
      expect(res.statusCode, raw).toBe(400);
    }
  });

  it('never reaches outside the stored videos, and says not found for an unknown one', async () => {
    for (const video_url of ['http://127.0.0.1:22/', 'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd', 'concat:/etc/hostname', '/media/videos/../../pglite/PG_VERSION', `https://evil.example${videoUrl}`]) {
      const res = await captureMany({ video_url, timestamps: [1] });
      expect(res.statusCode, video_url).toBe(400);
    }
    expect((await captureMany({ video_url: '/media/videos/ab/none.mp4', timestamps: [1] })).statusCode).toBe(404);
  });
});
