/**
 * How a captured frame's full-resolution image is kept: lossless PNG, so the products and print
 * files made from it keep every colour the video had (a browser's JPEG halves the colour
 * resolution, which costs saturated edges 6 to 10 dB). Only the slot's small preview is a JPEG.
 * Shared by the frame worker, the page's fallback encoder and the ffmpeg.wasm worker.
 */
export const STORED_FRAME_TYPE = 'image/png';

/** The canvas as the stored full-resolution image. */
export function encodeStoredFrame(canvas: OffscreenCanvas): Promise<Blob> {
  return canvas.convertToBlob({ type: STORED_FRAME_TYPE });
}
