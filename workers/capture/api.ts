/** What the capture worker offers, for the page that drives it (web/features/capture/wasmCapture.ts). */

export interface WasmFrame {
  /** JPEG at the video's display size, upright. */
  blob: Blob;
  width: number;
  height: number;
  /** Presentation time of the decoded frame, in seconds, as ffmpeg reports it. */
  timestamp: number;
}

export interface CaptureWorkerApi {
  /** Starts ffmpeg.wasm from this app's own copy of the core (never a CDN). Once per worker. */
  load(coreURL: string, wasmURL: string): Promise<void>;
  /** Whether the bytes of this video are already in the worker. */
  has(key: string): boolean;
  /** Keeps a video's bytes (transferred, not copied) for later captures, in place of the previous video. */
  put(key: string, bytes: ArrayBuffer): Promise<void>;
  /** The frame on screen at media time `target` (seconds), as JPEG at `quality` (0..1). */
  extract(key: string, target: number, quality: number): Promise<WasmFrame>;
}
