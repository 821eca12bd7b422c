/**
 * The browser keeps a captured frame's full-resolution image as a PNG: here, the encoder's choice
 * of type, and what that choice keeps of a saturated frame against ffmpeg's decode of it, beside
 * what the 4:2:0 JPEG the browser used before kept.
 */
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { encodeStoredFrame, STORED_FRAME_TYPE } from './stored-frame.ts';

const ffmpegBin = process.env.FFMPEG_PATH ?? 'ffmpeg';

/** A saturated 1280 x 720 frame as ffmpeg decodes it (BT.709, limited range), RGB: what the canvas holds after drawing it. */
function decodedFrame(): Buffer {
  const out = spawnSync(ffmpegBin, [
    '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30,hue=s=2,format=yuv420p',
    '-vf', 'scale=in_color_matrix=bt709:in_range=tv,format=rgb24', '-frames:v', '1', '-f', 'rawvideo', 'pipe:1',
  ], { maxBuffer: 64 * 1024 * 1024 });
  if (out.status !== 0) throw new Error(out.stderr.toString());
  return out.stdout;
}

const raw = { raw: { width: 1280, height: 720, channels: 3 as const } };

function psnr(a: Buffer, b: Buffer): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i]! - b[i]!) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255 * a.length) / se);
}

describe('the stored frame of a browser capture', () => {
  it('is a PNG', async () => {
    expect(STORED_FRAME_TYPE).toBe('image/png');
    const convertToBlob = vi.fn(async (o: { type: string }) => new Blob([], { type: o.type }));
    await encodeStoredFrame({ convertToBlob } as unknown as OffscreenCanvas);
    expect(convertToBlob).toHaveBeenCalledWith({ type: 'image/png' });

  });

  it('keeps every pixel of a saturated frame, where a 4:2:0 JPEG at 0.9 falls below 40 dB', async () => {
    const pixels = decodedFrame();
    const png = await sharp(pixels, raw).png().toBuffer();
    const back = await sharp(png).raw().toBuffer();
    const jpeg = await sharp(await sharp(pixels, raw).jpeg({ quality: 90, chromaSubsampling: '4:2:0' }).toBuffer()).raw().toBuffer();
    const fromJpeg = psnr(pixels, jpeg);
    console.info(`PNG ${png.length} B: lossless; 4:2:0 JPEG 0.9: ${fromJpeg.toFixed(2)} dB`);
    expect(psnr(pixels, back)).toBe(Infinity);
    expect(fromJpeg).toBeLessThan(40);
  });
});
