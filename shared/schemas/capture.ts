/** The server side of frame capture, the last step of the capture chain before the thumbnail, and its several-frame form. */
import { Type } from 'typebox';
import { MAX_SCREENSHOTS, SERVER_CAPTURE_QUALITY } from '../constants.ts';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

export const CAPTURE_FAILED = 'Failed to capture screenshot. Please try again.';

/** Where a frame can be captured: a video this server stores, named by its address. */
const VideoUrl = Type.String({ minLength: 1, maxLength: 500 });
/** A media time in seconds; the route also checks it against the video's duration. */
const Timestamp = Type.Number({ minimum: 0, maximum: 36_000 });
/** The JPEG quality of the slot's preview (`screenshot`); the full frame's quality is the server's. */
const PreviewQuality = Type.Integer({ minimum: 1, maximum: 100, default: SERVER_CAPTURE_QUALITY });

/** One captured frame, as both capture routes answer it. */
const CapturedFrameReply = {
  /** data:image/jpeg;base64,... at the requested quality (85 by default): what the screenshot slot shows. */
  screenshot: Type.String(),
  /**
   * data:image/jpeg;base64,... the same frame at full resolution without chroma subsampling, at
   * ffmpeg's finest JPEG scale (more than 40 dB against ffmpeg's own decode of the frame): the
   * image products and print files are made from.
   */
  frame: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  timestamp: Type.Number(),
};

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
        video_url: VideoUrl,
        timestamp: Timestamp,
        quality: Type.Optional(PreviewQuality),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), ...CapturedFrameReply }),
      ...errorReplies(400, 404, 422, 429, 503),
    },
  },
});

/** Spec section 8: the limit a viewer meets on the video page, also the most one call captures. */
export const MAX_SCREENSHOTS_MESSAGE = `Maximum ${MAX_SCREENSHOTS} screenshots allowed. Please delete some screenshots first.`;

export const captureMultipleScreenshotsRoute = defineRoute({
  method: 'POST',
  url: '/api/capture-multiple-screenshots',
  access: 'public',
  schema: {
    summary: `The frames on screen at up to ${MAX_SCREENSHOTS} media times of a video this server stores, in the order asked, each as /api/capture-screenshot answers it`,
    tags: ['videos'],
    body: Type.Object(
      {
        video_url: VideoUrl,
        timestamps: Type.Array(Timestamp, { minItems: 1, maxItems: MAX_SCREENSHOTS }),
        quality: Type.Optional(PreviewQuality),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), screenshots: Type.Array(Type.Object(CapturedFrameReply)) }),
      ...errorReplies(400, 404, 422, 429, 503),
    },
  },
});
