/**
 * No frame larger than 3840 x 2160 (either way round) enters the app: a video whose frames are
 * larger is refused, and so is any image larger than that, before it is decoded.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMediaTools } from '../../platform/media/ffmpeg.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { multipart, signedInCreator, testMedia, uploadParts } from '../../test/upload-helpers.ts';

let t: TestApp;
let huge: Buffer;
let hugeJpeg: Buffer;

beforeAll(async () => {
  t = await testApp();
  // A solid colour compresses small, well inside the upload limits: only the pixel count is wrong.
  const solid = sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#36c' } });
  huge = await solid.clone().png().toBuffer();
  hugeJpeg = await solid.clone().jpeg().toBuffer();
});
afterAll(async () => t?.close());

const TOO_LARGE = 'Images can be at most 3840 x 2160 pixels (8,294,400 pixels); this one is 7000 x 7000.';

describe('images larger than the largest video frame', () => {
  it('a 49-megapixel avatar gets 413 and leaves the profile as it was', async () => {
    const me = await signedInCreator(t, 'hugeavatar');
    const { payload, headers } = await multipart([{ name: 'image', value: huge, filename: 'me.png', type: 'image/png' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/studio/profile/avatar', payload, headers: { ...headers, ...me.headers }, cookies: me.cookies });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: TOO_LARGE });
    const row = await t.db.selectFrom('users').select('profile_image_url').where('id', '=', me.user.id).executeTakeFirstOrThrow();
    expect(row.profile_image_url).toBeNull();
    expect(await t.db.selectFrom('pending_objects').selectAll().execute()).toEqual([]);
  });

  it('a 49-megapixel thumbnail gets 413 and no video is kept', async () => {
    const me = await signedInCreator(t, 'hugethumb');
    const { payload, headers } = await multipart(uploadParts(await testMedia('h264-small.mp4'), hugeJpeg));
    const res = await t.app.inject({ method: 'POST', url: '/api/videos', payload, headers: { ...headers, ...me.headers }, cookies: me.cookies });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error).toContain(TOO_LARGE);
    expect(await t.db.selectFrom('videos').select('id').where('user_id', '=', me.user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('pending_objects').selectAll().execute()).toEqual([]);
  });
});

describe('videos larger than 3840 x 2160', () => {
  it('are refused with 422 and the size they are', async () => {
    const { ffmpeg } = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
    const file = path.join(t.config.dataDir, 'wide.mp4');
    const args = ['-f', 'lavfi', '-i', 'color=c=green:s=4096x2304:d=0.2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];
    execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args, file]);
    const me = await signedInCreator(t, 'widevideo');
    const { payload, headers } = await multipart(uploadParts(readFileSync(file), await testMedia('thumbnail.jpg')));
    const res = await t.app.inject({ method: 'POST', url: '/api/videos', payload, headers: { ...headers, ...me.headers }, cookies: me.cookies });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe('Video upload failed: the video is 4096 x 2304; at most 3840 x 2160 (either way round) is accepted');
    expect(await t.db.selectFrom('videos').select('id').where('user_id', '=', me.user.id).execute()).toEqual([]);
  });
});
