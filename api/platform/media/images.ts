/**
 * Accepts an uploaded image only when its bytes are a JPEG, PNG, WebP or GIF that decodes, and
 * stores a fresh JPEG made from its pixels: metadata (EXIF, GPS, ICC tricks) is dropped, the
 * orientation applied, and the size capped.
 */
import sharp from 'sharp';
import { sniffImage } from './sniff.ts';

export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_SIDE = 3840;

export class ImageRejected extends Error {
  override name = 'ImageRejected';
}

export async function reencodeImage(input: Buffer, opts: { maxSide?: number; quality?: number; chroma444?: boolean } = {}): Promise<{ data: Buffer; width: number; height: number }> {
  if (!sniffImage(input.subarray(0, 16))) throw new ImageRejected('not a JPEG, PNG, WebP or GIF image');
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: opts.maxSide ?? MAX_SIDE, height: opts.maxSide ?? MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: opts.quality ?? 88, mozjpeg: true, ...(opts.chroma444 ? { chromaSubsampling: '4:4:4' } : {}) })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    throw new ImageRejected(`the image could not be decoded (${(err as Error).message})`);
  }
}
