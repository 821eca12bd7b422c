/** The first step of the capture chain: the frame on screen, drawn from the <video> itself. */
import { CANVAS_JPEG_QUALITY } from '../../../shared/constants.ts';
import type { PresentedFrame } from './presentedFrame.ts';
import type { CapturedFrame } from './types.ts';

/**
 * Encodes the drawn frame as JPEG. Fails when it could not be drawn (no decodable frame) and when
 * the canvas is tainted (a video from another origin without CORS: toBlob throws SecurityError).
 */
export async function encodePresentedFrame(frame: PresentedFrame): Promise<Omit<CapturedFrame, 'source'>> {
  if (!frame.canvas) throw frame.drawError ?? new Error('The frame was not drawn');
  const canvas = frame.canvas;
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', CANVAS_JPEG_QUALITY));
  if (!blob) throw new Error('The canvas could not encode the frame');
  return { blob, width: canvas.width, height: canvas.height, timestamp: frame.time };
}
