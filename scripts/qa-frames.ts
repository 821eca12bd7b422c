/**
 * Frame-accuracy helpers for the QA clips (scripts/qa-clips.ts): ffmpeg's own decode of frame N
 * as the reference, decoded pixels of a captured JPEG, and PSNR between two images. Used by the
 * capture-accuracy spec and the server capture test (api/modules/capture/frame.test.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { QA_CLIPS_DIR, readFrameIndex, type QaClip } from './qa-clips.ts';

const run = promisify(execFile);

export interface Rgba {
  data: Buffer;
  width: number;
  height: number;
}

export async function decodeRgba(image: Buffer): Promise<Rgba> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Frame n of a clip as ffmpeg decodes it (the stream's BT.709 read as BT.709, full-range RGB),
 * upright (ffmpeg turns a rotated clip itself), as PNG.
 */
export async function referenceFrame(ffmpeg: string, clip: QaClip, n: number): Promise<Buffer> {
  const { stdout } = await run(ffmpeg, [
    '-v', 'error', '-i', path.join(QA_CLIPS_DIR, clip.name),
    '-vf', `select=eq(n\\,${n}),scale=in_color_matrix=bt709:in_range=tv:out_color_matrix=bt709:out_range=pc`,
    '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1',
  ], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** PSNR in dB over the RGB channels of two RGBA images of one size (99 when identical). */
export function psnr(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`Images differ in size: ${a.length} and ${b.length} bytes`);
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

/** The barcode of a captured frame; an upright frame of a rotated clip is turned back first. */
export async function frameIndexOf(image: Buffer, clip: QaClip): Promise<number> {
  const upright = clip.rotate ? await decodeRgba(await sharp(image).rotate(clip.rotate).toBuffer()) : await decodeRgba(image);
  return readFrameIndex(upright.data, upright.width);
}

/** The size a viewer sees: a quarter-turned clip is shown upright. */
export function displaySizeOf(clip: QaClip): { width: number; height: number } {
  return clip.rotate ? { width: clip.height, height: clip.width } : { width: clip.width, height: clip.height };
}

/**
 * The presentation times in seconds of every frame of a clip, ascending, as stored (the times a
 * player's currentTime and ffmpeg's -copyts count in): frame n of the clip is shown from times[n]
 * until times[n + 1].
 */
export async function frameTimes(ffprobe: string, clip: QaClip): Promise<number[]> {
  const { stdout } = await run(ffprobe, [
    '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', path.join(QA_CLIPS_DIR, clip.name),
  ], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').map(Number.parseFloat).filter(Number.isFinite).sort((a, b) => a - b);
}
