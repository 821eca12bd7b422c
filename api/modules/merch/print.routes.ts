import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import sharp from 'sharp';
import { feather } from '../../../shared/pixels/image.ts';
import { printFileSize } from '../../../shared/print.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { DEFAULT_PRINT_AREA_IN, FEATHER_RADIUS, processPrintQualityRoute, processShirtImageRoute } from '../../../shared/schemas/print.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { MAX_INPUT_PIXELS } from '../../platform/media/images.ts';
import { sniffImage } from '../../platform/media/sniff.ts';

const BODY_LIMIT = 32 * 1024 * 1024;
const MAX_CONCURRENT = 2;

/** Decodes a data URL whose bytes really are an image, to straight RGBA. */
async function decode(dataUrl: string) {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (!sniffImage(bytes.subarray(0, 16))) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'The image data is not a PNG, JPEG or WebP image.');
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
  } catch {
    throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'The image could not be decoded.');
  }
}

const raw = (img: { width: number; height: number; data: Uint8ClampedArray }) =>
  sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), { raw: { width: img.width, height: img.height, channels: 4 } });

const print: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = new FailureLimiter(30, 60_000);
  let running = 0;
  async function guarded<T>(ip: string, work: () => Promise<T>): Promise<T> {
    if (perIp.blocked(ip)) throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many images. Please wait a minute.');
    perIp.fail(ip);
    if (running >= MAX_CONCURRENT) throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, 'The print service is busy. Please try again.');
    running++;
    try {
      return await work();
    } finally {
      running--;
    }
  }

  app.route({
    ...processShirtImageRoute,
    bodyLimit: BODY_LIMIT,
    handler: async (request) =>
      guarded(request.ip, async () => {
        const image = feather(await decode(request.body.image_data), request.body.feather_radius ?? FEATHER_RADIUS);
        const png = await raw(image).png({ compressionLevel: 6 }).toBuffer();
        return { success: true as const, processed_image: `data:image/png;base64,${png.toString('base64')}`, width: image.width, height: image.height };
      }),
  });

  app.route({
    ...processPrintQualityRoute,
    bodyLimit: BODY_LIMIT,
    handler: async (request) =>
      guarded(request.ip, async () => {
        const { thumbnail_data: data, print_dpi: dpi = 300, edge_feather: edge = true, print_area_in: area = DEFAULT_PRINT_AREA_IN } = request.body;
        const image = await decode(data);
        // The feather is drawn at the source resolution, so the resample scales it with the image.
        if (edge) feather(image, FEATHER_RADIUS);
        const size = printFileSize(image, { widthIn: area.width_in, heightIn: area.height_in }, dpi);
        const png = await raw(image).resize(size.width, size.height, { kernel: 'lanczos3', fit: 'fill' }).png({ compressionLevel: 6 }).toBuffer();
        return { success: true as const, screenshot: `data:image/png;base64,${png.toString('base64')}`, width: size.width, height: size.height, dpi };
      }),
  });
};

export default print;
