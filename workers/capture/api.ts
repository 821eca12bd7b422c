/** What the capture worker offers, for the page that drives it (web/features/capture/wasmCapture.ts). */

export interface WasmFrame {
  /** The full-resolution frame, lossless PNG at the video's display size, upright: what products and print files are made from. */
  blob: Blob;
  /** The same frame as a JPEG at the quality asked, for the screenshot slot. */
  preview: Blob;
  width: number;
  height: number;
  /** Presentation time of the decoded frame, in seconds, as ffmpeg reports it. */
  timestamp: number;
}

export interface CaptureWorkerApi {
  /**
   * Starts ffmpeg.wasm (the FFmpeg class's own worker, the core and its wasm) from this app's own
   * copies (never a CDN). Once per worker.
   */
  load(coreURL: string, wasmURL: string, classWorkerURL: string): Promise<void>;
  /** Whether the bytes of this video are already in the worker. */
  has(key: string): boolean;
  /** Keeps a video's bytes (transferred, not copied) for later captures, in place of the previous video. */
  put(key: string, bytes: ArrayBuffer): Promise<void>;
  /** The frame on screen at media time `target` (seconds): lossless PNG, and a JPEG preview at `quality` (0..1). */
  extract(key: string, target: number, quality: number): Promise<WasmFrame>;
}
