import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { DEFAULT_PRINT_AREA_IN, FEATHER_RADIUS, processPrintQualityRoute, processShirtImageRoute } from '../../../shared/schemas/print.ts';
import { RateLimiter } from '../../platform/http/rate-limit.ts';
import { inLargeBodySlot } from '../../platform/http/body-slots.ts';
import { AppError } from '../../platform/http/errors.ts';
import { sniffImage } from '../../platform/media/sniff.ts';
import { runPrintPipelineOffThread } from './pipeline-threads.ts';
import { decodeRgba, encodePng } from './print-render.ts';

const BODY_LIMIT = 32 * 1024 * 1024;
const MAX_CONCURRENT = 2;

/** Decodes a data URL whose bytes really are an image, to straight RGBA. */
async function decode(dataUrl: string) {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (!sniffImage(bytes.subarray(0, 16))) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'The image data is not a PNG, JPEG or WebP image.');
  try {
    return await decodeRgba(bytes);
  } catch {
    throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'The image could not be decoded.');
  }
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

const print: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = new RateLimiter(app.db, 'print-image', 30, 60_000);
  let running = 0;
  async function guarded<T>(ip: string, work: () => Promise<T>): Promise<T> {
    if (!(await perIp.take(ip))) throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many images. Please wait a minute.');
    if (running >= MAX_CONCURRENT) throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, 'The print service is busy. Please try again.');
    running++;
    try {
      return await work();
    } finally {
      running--;
    }
  }

  // Both routes run the print pipeline of the browser's print worker, for browsers without one.
  app.route({
    ...processShirtImageRoute,
    bodyLimit: BODY_LIMIT,
    ...inLargeBodySlot(),
    handler: async (request) =>
      guarded(request.ip, async () => {
        const options = { crop: null, featherRadius: request.body.feather_radius ?? FEATHER_RADIUS, printArea: null };
        const image = await runPrintPipelineOffThread(await decode(request.body.image_data), options);
        return { success: true as const, processed_image: dataUrl(await encodePng(image)), width: image.width, height: image.height };
      }),
  });

  app.route({
    ...processPrintQualityRoute,
    bodyLimit: BODY_LIMIT,
    ...inLargeBodySlot(),
    handler: async (request) =>
      guarded(request.ip, async () => {
        const { thumbnail_data: data, print_dpi: dpi = 300, edge_feather: edge = true, print_area_in: area = DEFAULT_PRINT_AREA_IN } = request.body;
        const options = { crop: null, featherRadius: edge ? FEATHER_RADIUS : 0, printArea: { widthIn: area.width_in, heightIn: area.height_in }, dpi };
        const image = await runPrintPipelineOffThread(await decode(data), options);
        return { success: true as const, screenshot: dataUrl(await encodePng(image)), width: image.width, height: image.height, dpi };
      }),
  });
};

export default print;
