/**
 * The capture chain: the frame on screen from the <video> element through a canvas. The
 * ffmpeg.wasm, server and thumbnail steps follow in this module.
 */
import { CANVAS_JPEG_QUALITY } from '../../../shared/constants.ts';
import type { CapturedFrame, CaptureRequest } from './types.ts';

export type { CapturedFrame, CaptureRequest, CaptureSource } from './types.ts';

export async function captureFrame(req: CaptureRequest): Promise<CapturedFrame> {
  const { video } = req;
  if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || video.videoWidth === 0) throw new Error('The video has no frame to capture yet');
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', CANVAS_JPEG_QUALITY));
  if (!blob) throw new Error('The canvas could not encode the frame');
  return { blob, width: canvas.width, height: canvas.height, timestamp: video.currentTime, source: 'canvas' };
}
