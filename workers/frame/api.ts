/** What the frame worker offers, for the page that drives it (web/features/capture/frameEncoder.ts). */
export interface FrameWorkerApi {
  /**
   * The frame as a JPEG at `quality` (0 to 1), at its own (display) size. The bitmap or video
   * frame is transferred to the worker and closed there.
   */
  jpeg(frame: ImageBitmap | VideoFrame, quality: number): Promise<Blob>;
}
