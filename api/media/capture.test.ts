/**
 * The server capture returns the frame on screen at a media time: checked on every QA clip by
 * the frame's own barcode and by PSNR against ffmpeg's decode of exactly that frame.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeQaClips, QA_CLIPS, QA_CLIPS_DIR, readFrameIndex, type QaClip } from '../../scripts/qa-clips.ts';
import { captureFrame } from './capture.ts';
import { findMediaTools, probe, type MediaTools } from './ffmpeg.ts';

let tools: MediaTools;
beforeAll(async () => {
  await makeQaClips();
  tools = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
}, 300_000);

async function rgba(image: Buffer) {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Frame n decoded by ffmpeg itself (BT.709 read as BT.709), as PNG. */
function reference(clip: QaClip, n: number): Buffer {
  return execFileSync(tools.ffmpeg, [
    '-v', 'error', '-i', path.join(QA_CLIPS_DIR, clip.name),
    '-vf', `select=eq(n\\,${n}),scale=in_color_matrix=bt709:in_range=tv:out_color_matrix=bt709:out_range=pc`,
    '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1',
  ], { maxBuffer: 64 * 1024 * 1024 });
}

function psnr(a: Buffer, b: Buffer): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      const d = a[i + c]! - b[i + c]!;
      sum += d * d;
      count++;
    }
  }
  const mse = sum / count;
  return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

describe('server frame capture', () => {
  for (const clip of QA_CLIPS.filter((c) => !c.rotate)) {
    it(`returns frame N at the centre of frame N: ${clip.name}`, async () => {
      const file = path.join(QA_CLIPS_DIR, clip.name);
      const info = await probe(tools.ffprobe, file);
      const total = Math.round(clip.seconds * clip.fps);
      for (const n of [1, Math.floor(total / 2), total - 3]) {
        const jpeg = await captureFrame({ ffmpeg: tools.ffmpeg, file, time: (n + 0.5) / clip.fps, quality: 85, info });
        const got = await rgba(jpeg);
        expect([got.width, got.height]).toEqual([clip.width, clip.height]);
        expect(readFrameIndex(got.data, got.width), `${clip.name} frame ${n}`).toBe(n);
        const same = psnr(got.data, (await rgba(reference(clip, n))).data);
        const before = psnr(got.data, (await rgba(reference(clip, n - 1))).data);
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
    const got = await rgba(jpeg);
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
    const back = await rgba(await sharp(jpeg).rotate(90).toBuffer());
    expect(readFrameIndex(back.data, back.width)).toBe(10);
  });
});
