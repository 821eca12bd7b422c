/**
 * Accepts an uploaded image only when its bytes are a JPEG, PNG, WebP or GIF that decodes, and
 * stores a fresh JPEG made from its pixels: metadata (EXIF, GPS, ICC tricks) is dropped, the
 * orientation applied, and the size capped.
 *
 * Its size is read from the header before anything is decoded: an image larger than the largest
 * video frame the app takes is refused at once, and the others wait for a decode slot
 * (decode-slots.ts), so a flood of large images cannot grow the process without bound.
 */
import sharp from 'sharp';
import { imageDecodes } from './decode-slots.ts';
import { sniffImage } from './sniff.ts';

/** Images the server made and stored itself (print files' sources), decoded by background jobs. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_SIDE = 3840;
/** The largest frame a video can have, 3840 x 2160 either way round: no image a user sends may be larger. */
export const MAX_FRAME_PIXELS = 3840 * 2160;

/**
 * How a captured frame is kept for products and print files: full resolution, no chroma
 * subsampling, quality 95 (above 40 dB against ffmpeg's own decode of the frame on saturated
 * colour, where a 4:2:0 JPEG stays near 30 dB; frame-fidelity.unit.test.ts measures it).
 */
export const STORED_FRAME_JPEG = { maxSide: 4096, quality: 95, chroma444: true } as const;

export class ImageRejected extends Error {
  override name = 'ImageRejected';
}

/** An image whose header says it is larger than MAX_FRAME_PIXELS; it is never decoded. */
export class ImageTooLarge extends Error {
  override name = 'ImageTooLarge';
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`Images can be at most 3840 x 2160 pixels (${MAX_FRAME_PIXELS.toLocaleString('en-US')} pixels); this one is ${width} x ${height}.`);
  }
}

/** The width and height the image's header declares, without decoding its pixels. */
async function headerSize(input: Buffer): Promise<{ width: number; height: number }> {
  try {
    // No pixel limit here: the header of any size is read, and the limit is applied below with a clear answer.
    const meta = await sharp(input, { limitInputPixels: false, animated: false }).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions in the header');
    return { width: meta.width, height: meta.height };
  } catch (err) {
    throw new ImageRejected(`the image could not be read (${(err as Error).message})`);
  }
}

export async function reencodeImage(input: Buffer, opts: { maxSide?: number; quality?: number; chroma444?: boolean } = {}): Promise<{ data: Buffer; width: number; height: number }> {
  if (!sniffImage(input.subarray(0, 16))) throw new ImageRejected('not a JPEG, PNG, WebP or GIF image');
  const { width, height } = await headerSize(input);
  if (width * height > MAX_FRAME_PIXELS) throw new ImageTooLarge(width, height);
  return imageDecodes.run(async () => {
    try {
      // sharp's own pixel limit is a second guard, should a header understate what the decoder finds.
      const { data, info } = await sharp(input, { limitInputPixels: MAX_FRAME_PIXELS, failOn: 'error', animated: false })
        .rotate()
        .resize({ width: opts.maxSide ?? MAX_SIDE, height: opts.maxSide ?? MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: opts.quality ?? 88, mozjpeg: true, ...(opts.chroma444 ? { chromaSubsampling: '4:4:4' } : {}) })
        .toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height };
    } catch (err) {
      if (/pixel limit/i.test((err as Error).message)) throw new ImageTooLarge(width, height);
      throw new ImageRejected(`the image could not be decoded (${(err as Error).message})`);
    }
  });
}
