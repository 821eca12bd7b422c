/** The capture chain's contract: what the video page asks for and what it gets back. */
import type { Size } from '../../../shared/print.ts';
import type { CaptureSource } from '../../stores/pendingMerchRecord.ts';

/** Where a captured frame came from, in the order the chain tries them (kept in the pending merch record). */
export type { CaptureSource };

export interface CapturedFrame {
  /**
   * JPEG (quality 0.9 in the browser, 85 on the server), at the video's own resolution. The
   * canvas step answers while this is still being encoded (a promise), as soon as `preview` exists.
   */
  blob: Blob | Promise<Blob>;
  /** A small JPEG of the same frame, sized for a screenshot slot (the canvas step makes one). */
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
