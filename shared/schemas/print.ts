/** Print preparation on the server, for browsers without workers or OffscreenCanvas. */
import { Type } from 'typebox';
import { FEATHER_RADIUS_PX } from '../constants.ts';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

export const FEATHER_RADIUS = FEATHER_RADIUS_PX;
export const DEFAULT_PRINT_AREA_IN = { width_in: 12, height_in: 16 } as const;
/** Data URLs up to this many characters (about 22 MB of image). */
export const MAX_IMAGE_DATA_URL = 30_000_000;

const ImageDataUrl = Type.String({ maxLength: MAX_IMAGE_DATA_URL, pattern: '^data:image/(png|jpeg|webp);base64,' });

export const processShirtImageRoute = defineRoute({
  method: 'POST',
  url: '/api/process-shirt-image',
  access: 'public',
  schema: {
    summary: 'Applies the soft feathered edge to an image; answers a PNG data URL',
    tags: ['shop'],
    body: Type.Object(
      { image_data: ImageDataUrl, feather_radius: Type.Optional(Type.Number({ minimum: 0, maximum: 200, default: FEATHER_RADIUS })) },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), processed_image: Type.String(), width: Type.Integer(), height: Type.Integer() }),
      ...errorReplies(400, 413, 415, 429, 503),
    },
  },
});

export const processPrintQualityRoute = defineRoute({
  method: 'POST',
  url: '/api/process-thumbnail-print-quality',
  access: 'public',
  schema: {
    summary:
      'Makes the print file: feathered edge (optional), resampled with Lanczos-3 to fill the print area at the DPI without stretching; answers a PNG data URL',
    tags: ['shop'],
    body: Type.Object(
      {
        thumbnail_data: ImageDataUrl,
        print_dpi: Type.Optional(Type.Integer({ minimum: 72, maximum: 300, default: 300 })),
        soft_corners: Type.Optional(Type.Boolean({ default: false })),
        edge_feather: Type.Optional(Type.Boolean({ default: true })),
        print_area_in: Type.Optional(
          Type.Object({ width_in: Type.Number({ exclusiveMinimum: 0, maximum: 20 }), height_in: Type.Number({ exclusiveMinimum: 0, maximum: 20 }) }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), screenshot: Type.String(), width: Type.Integer(), height: Type.Integer(), dpi: Type.Integer() }),
      ...errorReplies(400, 413, 415, 429, 503),
    },
  },
});
