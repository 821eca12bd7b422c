/**
 * The capture chain: the frame on screen, from the first of these that works:
 *   1. canvas: drawn from the <video> itself (fast; fails on a tainted canvas or a video the
 *      browser cannot decode);
 *   2. wasm: ffmpeg.wasm decodes the same frame from the video's bytes in a worker (loaded only
 *      when needed);
 *   3. server: POST /api/capture-screenshot, for at most 30 s;
 *   4. thumbnail: the video's thumbnail.
 * Every step targets the frame that was on screen when the capture began.
 */
import { encodePresentedFrame } from './canvasCapture.ts';
import { presentedFrame } from './presentedFrame.ts';
import { runChain, type CaptureStep } from './runChain.ts';
import { captureOnServer } from './serverCapture.ts';
import { fetchThumbnail } from './thumbnailCapture.ts';
import type { CapturedFrame, CaptureRequest, CaptureSource } from './types.ts';

export type { CapturedFrame, CaptureRequest, CaptureSource } from './types.ts';

export async function captureFrame(req: CaptureRequest): Promise<CapturedFrame> {
  const { video, videoUrl, thumbnailUrl, force, signal, previewBox } = req;
  const frame = await presentedFrame(video, !force || force === 'canvas', signal);
  performance.mark('capture:frame-drawn');
  const steps: Record<CaptureSource, CaptureStep> = {
    // Drawn only when the chain starts here (a forced later step never comes back to it).
    canvas: () => encodePresentedFrame(frame, previewBox),
    wasm: async () => (await import('./wasmCapture.ts')).captureWithWasm(videoUrl, frame, signal),
    server: () => captureOnServer(videoUrl, frame, signal),
    thumbnail: () => fetchThumbnail(thumbnailUrl, frame.time, signal),
  };
  try {
    return await runChain(steps, force, signal, ({ source, error }) => {
      if ((error as { name?: unknown })?.name !== 'AbortError') console.warn(`Screenshot: the ${source} step failed`, error);
    });
  } finally {
    // A frame the canvas step did not take (aborted, or a later step forced) is let go.
    frame.videoFrame?.close();
  }
}
