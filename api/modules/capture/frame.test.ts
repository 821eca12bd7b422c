/**
 * The server capture returns the frame on screen at a media time: checked on every QA clip by
 * the frame's own barcode and by PSNR against ffmpeg's decode of exactly that frame.
 */
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeQaClips, QA_CLIPS, QA_CLIPS_DIR, readFrameIndex } from '../../../scripts/qa-clips.ts';
import { decodeRgba, psnr, referenceFrame } from '../../../scripts/qa-frames.ts';
import { captureFrame } from './frame.ts';
import { findMediaTools, probe, type MediaTools } from '../../platform/media/ffmpeg.ts';

let tools: MediaTools;
beforeAll(async () => {
  await makeQaClips();
  tools = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
}, 300_000);

describe('server frame capture', () => {
  for (const clip of QA_CLIPS.filter((c) => !c.rotate)) {
    it(`returns frame N at the centre of frame N: ${clip.name}`, async () => {
      const file = path.join(QA_CLIPS_DIR, clip.name);
      const info = await probe(tools.ffprobe, file);
      const total = Math.round(clip.seconds * clip.fps);
      for (const n of [1, Math.floor(total / 2), total - 3]) {
        const jpeg = await captureFrame({ ffmpeg: tools.ffmpeg, file, time: (n + 0.5) / clip.fps, quality: 85, info });
        const got = await decodeRgba(jpeg);
        expect([got.width, got.height]).toEqual([clip.width, clip.height]);
        expect(readFrameIndex(got.data, got.width), `${clip.name} frame ${n}`).toBe(n);
        const same = psnr(got.data, (await decodeRgba(await referenceFrame(tools.ffmpeg, clip, n))).data);
        const before = psnr(got.data, (await decodeRgba(await referenceFrame(tools.ffmpeg, clip, n - 1))).data);
        expect(same, `${clip.name} frame ${n}: ${same.toFixed(1)} dB`).toBeGreaterThanOrEqual(40);
        expect(before, `${clip.name} frame ${n} against ${n - 1}`).toBeLessThan(same - 3);
      }
    }, 60_000);
  }

  it('also returns frame N at the very start of frame N (a paused player reports that time)', async () => {
    const clip = QA_CLIPS.find((c) => c.name === 'h264-720p30.mp4')!;
    const file = path.join(QA_CLIPS_DIR, clip.name);
    const info = await probe(tools.ffprobe, file);
    const jpeg = await captureFrame({ ffmpeg: tools.ffmpeg, file, time: 17 / 30 + 0.0001, quality: 85, info });
    const got = await decodeRgba(jpeg);
    expect(readFrameIndex(got.data, got.width)).toBe(17);
  });

  it('returns a rotated phone clip upright', async () => {
    const clip = QA_CLIPS.find((c) => c.rotate)!;
    const file = path.join(QA_CLIPS_DIR, clip.name);
    const info = await probe(tools.ffprobe, file);
    const jpeg = await captureFrame({ ffmpeg: tools.ffmpeg, file, time: 10.5 / 30, quality: 85, info });
    const meta = await sharp(jpeg).metadata();
    expect([meta.width, meta.height]).toEqual([720, 1280]);
    // Undo the display rotation (90 degrees counter-clockwise) to read the barcode.
    const back = await decodeRgba(await sharp(jpeg).rotate(90).toBuffer());
    expect(readFrameIndex(back.data, back.width)).toBe(10);
  });
});
