/** The server side of frame capture, the last step of the capture chain before the thumbnail. */
import { Type } from 'typebox';
import { SERVER_CAPTURE_QUALITY } from '../constants.ts';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

export const CAPTURE_FAILED = 'Failed to capture screenshot. Please try again.';

export const captureScreenshotRoute = defineRoute({
  method: 'POST',
  url: '/api/capture-screenshot',
  access: 'public',
  schema: {
    summary:
      'The frame on screen at a media time of a video this server stores, at its own resolution, as a JPEG data URL',
    tags: ['videos'],
    body: Type.Object(
      {
        video_url: Type.String({ minLength: 1, maxLength: 500 }),
        timestamp: Type.Number({ minimum: 0, maximum: 36_000 }),
        quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: SERVER_CAPTURE_QUALITY })),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        /** data:image/jpeg;base64,... */
        screenshot: Type.String(),
        width: Type.Integer(),
        height: Type.Integer(),
        timestamp: Type.Number(),
      }),
      ...errorReplies(400, 404, 422, 429, 503),
    },
  },
});
