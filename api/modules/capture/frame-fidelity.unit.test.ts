/**
 * The server path's full-resolution frame, measured against ffmpeg's own decode of the same frame
 * with the same colour matrix, on saturated colour (where a 4:2:0 JPEG loses most): it must stay
 * above 40 dB, as must the copy a merch product keeps of it. Untagged video follows the app's one
 * colour rule: BT.709 from 720 lines up, BT.601 below.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMediaTools, runFfmpeg, type MediaTools } from '../../platform/media/ffmpeg.ts';
import { reencodeImage, STORED_FRAME_JPEG } from '../../platform/media/images.ts';
import { captureStoredFrames, type CaptureDeps } from './service.ts';

const FPS = 30;
let tools: MediaTools;
let dir: string;
const clips: Record<'hd' | 'sd', string> = { hd: '', sd: '' };

function ffmpegOut(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(tools.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(err))));
  });
}

/** ffmpeg's own decode of frame n as RGB, its YUV read with `matrix` (limited range). */
const reference = (clip: string, n: number, matrix: 'bt709' | 'bt601') =>
  ffmpegOut(['-hide_banner', '-loglevel', 'error', '-i', clip, '-vf', `select=eq(n\\,${n}),scale=in_color_matrix=${matrix}:in_range=tv,format=rgb24`, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1']);

const rgb = async (image: Buffer) => (await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true })).data;

async function psnr(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = [await rgb(a), await rgb(b)];
  expect(x.length).toBe(y.length);
  let se = 0;
  for (let i = 0; i < x.length; i++) se += (x[i]! - y[i]!) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255 * x.length) / se);
}

function deps(file: string): CaptureDeps {
  const storage = { localPath: () => file } as unknown as CaptureDeps['storage'];
  return { db: null as unknown as CaptureDeps['db'], storage, tools, tmpDir: dir };
}

beforeAll(async () => {
  tools = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: process.env.FFPROBE_PATH ?? null });
  dir = await mkdtemp(path.join(tmpdir(), 'frame-fidelity-'));
  // Saturation doubled: the colour edges a 4:2:0 JPEG blurs. No colour tags, as many uploads have none.
  for (const [name, size] of [['hd', '1280x720'], ['sd', '640x360']] as const) {
    clips[name] = path.join(dir, `${name}.mp4`);
    await runFfmpeg(tools.ffmpeg, ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${FPS},hue=s=2`, '-t', '1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '30', clips[name]]);
  }
}, 60_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the server capture of a saturated, untagged HD clip', () => {
  it('keeps the full frame at 4:4:4 above 40 dB, the preview at the asked quality, and the product copy above 40 dB', async () => {
    const n = 12;
    const [shot] = await captureStoredFrames(deps(clips.hd), 'clip', [(n + 0.5) / FPS], 85);
    const ref = await reference(clips.hd, n, 'bt709');
    const meta = await sharp(shot!.frame).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'jpeg', width: 1280, height: 720 });
    expect({ width: shot!.width, height: shot!.height }).toEqual({ width: 1280, height: 720 });

    const full = await psnr(shot!.frame, ref);
    const preview = await psnr(shot!.preview, ref);
    const product = await psnr((await reencodeImage(shot!.frame, STORED_FRAME_JPEG)).data, ref);
    // What the browser's JPEG did to the same pixels before: 4:2:0 at 0.9.
    const browser420 = await psnr(await sharp(ref).jpeg({ quality: 90 }).toBuffer(), ref);
    console.info(`server frame ${full.toFixed(2)} dB (${shot!.frame.length} B), preview q85 ${preview.toFixed(2)} dB (${shot!.preview.length} B), product copy ${product.toFixed(2)} dB, a 4:2:0 JPEG 0.9 ${browser420.toFixed(2)} dB`);
    expect(full).toBeGreaterThanOrEqual(40);
    expect(product).toBeGreaterThanOrEqual(40);
    expect(browser420).toBeLessThan(40);
    expect(shot!.preview.length).toBeLessThan(shot!.frame.length);
  }, 60_000);

  it('reads an untagged HD clip as BT.709', async () => {
    const n = 5;
    const [hd] = await captureStoredFrames(deps(clips.hd), 'hd', [(n + 0.5) / FPS], 85);
    expect(await psnr(hd!.frame, await reference(clips.hd, n, 'bt709'))).toBeGreaterThanOrEqual(40);
    expect(await psnr(hd!.frame, await reference(clips.hd, n, 'bt601'))).toBeLessThan(35);
  }, 60_000);

  // Known fault: below 720 lines the frame's range is not expanded (ffmpeg's scale skips the
  // limited-to-full step when the input and output matrices are both BT.601), about 30 dB. This
  // test passes once that is fixed; then make it an ordinary test.
  it('reads an untagged SD clip as BT.601', async () => {
    const n = 5;
    const [sd] = await captureStoredFrames(deps(clips.sd), 'sd', [(n + 0.5) / FPS], 85);
    expect(await psnr(sd!.frame, await reference(clips.sd, n, 'bt601'))).toBeGreaterThanOrEqual(40);
    expect(await psnr(sd!.frame, await reference(clips.sd, n, 'bt709'))).toBeLessThan(35);
  }, 60_000);

  it('captures several times from one probe, in the order asked', async () => {
    const frames = [3, 20, 7];
    const shots = await captureStoredFrames(deps(clips.hd), 'clip', frames.map((n) => (n + 0.5) / FPS), 85);
    expect(shots).toHaveLength(3);
    for (const [i, n] of frames.entries()) expect(await psnr(shots[i]!.frame, await reference(clips.hd, n, 'bt709'))).toBeGreaterThanOrEqual(40);
  }, 60_000);
});
