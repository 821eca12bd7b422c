/**
 * The server's side of the print pipeline (shared/pixels/print-pipeline.ts): sharp decodes the
 * image to straight RGBA and encodes the result as PNG; the pixels in between are made by the
 * same code as the browser's print preview, on a worker thread.
 */
import sharp from 'sharp';
import type { Area } from '../../../shared/catalogue/parse.ts';
import type { RgbaImage } from '../../../shared/pixels/image.ts';
import { printFileOptions } from '../../../shared/pixels/print-pipeline.ts';
import { PRINT_DPI, type Size } from '../../../shared/print.ts';
import { MAX_INPUT_PIXELS } from '../../platform/media/images.ts';
import { imageDecodes } from '../../platform/media/decode-slots.ts';
import { runPrintPipelineOffThread } from './pipeline-threads.ts';

/** Decodes image bytes, upright, to straight RGBA. Throws when the bytes do not decode. */
export async function decodeRgba(bytes: Buffer): Promise<RgbaImage> {
  // A decode slot, as for uploads: print files for many orders at once share the cores, not all of memory.
  const { data, info } = await imageDecodes.run(() =>
    sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true }),
  );
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
}

/** Encodes RGBA as PNG, saying its DPI when given. */
export function encodePng(image: RgbaImage, dpi?: number): Promise<Buffer> {
  const raw = sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: { width: image.width, height: image.height, channels: 4 } });
  return (dpi ? raw.withDensity(dpi) : raw).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * An order item's print file from its screenshot's bytes: the preview's pipeline and parameters
 * (no crop: the screenshot is the buyer's crop; feathered; fitted to the area at 300 DPI), as a
 * PNG that says its DPI. Throws when the bytes do not decode.
 */
export async function renderPrintFile(image: Buffer, area: Area): Promise<{ png: Buffer } & Size> {
  const options = printFileOptions(null, area);
  const out = await runPrintPipelineOffThread(await decodeRgba(image), options);
  return { png: await encodePng(out, options.dpi ?? PRINT_DPI), width: out.width, height: out.height };
}
