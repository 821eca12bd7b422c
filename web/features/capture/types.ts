/** The capture chain's contract: what the video page asks for and what it gets back. */
import type { Size } from '../../../shared/print.ts';
import type { CaptureSource } from '../../stores/pendingMerchRecord.ts';

/** Where a captured frame came from, in the order the chain tries them (kept in the pending merch record). */
export type { CaptureSource };

export interface CapturedFrame {
  /**
   * The full-resolution frame products and print files are made from, without chroma loss: a PNG
   * from the canvas and ffmpeg.wasm steps, a JPEG 4:4:4 at ffmpeg's finest scale from the server. The canvas step
   * answers while this is still being encoded (a promise), as soon as `preview` exists.
   */
  blob: Blob | Promise<Blob>;
  /** A JPEG of the same frame for the screenshot slot (0.9 and slot-sized from the canvas step, 85 from the server). */
  preview?: Blob;
  width: number;
  height: number;
  /** Media time of the frame captured, in seconds (the pending merch's screenshot_timestamp). */
  timestamp: number;
  source: CaptureSource;
}

export interface CaptureRequest {
  video: HTMLVideoElement;
  /** The video's address as this server gave it (for ffmpeg.wasm and the server path). */
  videoUrl: string;
  /** Used when every capture path fails. */
  thumbnailUrl: string | null;
  /**
   * The device pixels the screenshot slot shows the preview in (canvasCapture.ts previewBoxFor):
   * the canvas step makes its preview that size, so no pixel is made that the screen does not show.
   */
  previewBox?: Size;
  /** Start the chain at this step (QA and benchmarks: `?capture=wasm` or `?capture=server`). */
  force?: Exclude<CaptureSource, 'thumbnail'>;
  signal?: AbortSignal;
}
