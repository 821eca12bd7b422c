/** What the frame worker offers, for the page that drives it (web/features/capture/frameEncoder.ts). */
export interface FrameWorkerApi {
  /**
   * The frame as the stored full-resolution image (a PNG: no chroma subsampling, no quantising),
   * at its own (display) size. The bitmap or video frame is transferred to the worker and closed there.
   */
  encode(frame: ImageBitmap | VideoFrame): Promise<Blob>;
}
