/** What the frame worker offers, for the page that drives it (web/lib/capture/frameEncoder.ts). */
export interface FrameWorkerApi {
  /**
   * The frame as a JPEG at `quality` (0 to 1), at the bitmap's own size. The bitmap is
   * transferred to the worker and closed there.
   */
  jpeg(frame: ImageBitmap, quality: number): Promise<Blob>;
}
