/** The server step of the capture chain: POST /api/capture-screenshot, for at most 30 s. */
import { SERVER_CAPTURE_QUALITY, SERVER_CAPTURE_TIMEOUT_MS } from '../../../shared/constants.ts';
import { captureScreenshotRoute } from '../../../shared/schemas/capture.ts';
import { timeInsideFrame } from './frameTime.ts';
import { request } from '../../lib/api.ts';
import type { PresentedFrame } from './presentedFrame.ts';
import type { CapturedFrame } from './types.ts';

export function dataUrlToBlob(dataUrl: string): Blob {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(dataUrl);
  if (!m) throw new Error('The server sent no image');
  const bin = atob(m[2]!);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Blob([bytes], { type: m[1] });
}

export async function captureOnServer(videoUrl: string, frame: PresentedFrame, signal?: AbortSignal): Promise<Omit<CapturedFrame, 'source'>> {
  const timeout = AbortSignal.timeout(SERVER_CAPTURE_TIMEOUT_MS);
  const reply = await request(captureScreenshotRoute, {
    body: { video_url: videoUrl, timestamp: timeInsideFrame(frame.time, frame.exact), quality: SERVER_CAPTURE_QUALITY },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  // The slot shows the quality-85 JPEG; the record keeps the full frame, without chroma subsampling.
  return { blob: dataUrlToBlob(reply.frame), preview: dataUrlToBlob(reply.screenshot), width: reply.width, height: reply.height, timestamp: frame.time };
}
