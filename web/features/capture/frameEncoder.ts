/**
 * The full-resolution image of a captured frame, the one products and print files are made from:
 * a lossless PNG (workers/frame/stored-frame.ts), so no colour is halved or quantised on its way
 * to print. Encoded in the frame worker (started on first use, ended after a few idle seconds) so
 * the main thread stays free to paint the slot; on the main thread (canvas.toBlob) where workers
 * or OffscreenCanvas are missing or the worker fails. Only the slot's preview is a JPEG.
 */
import * as Comlink from 'comlink';
import type { FrameWorkerApi } from '../../../workers/frame/api.ts';
import { STORED_FRAME_TYPE } from '../../../workers/frame/stored-frame.ts';
import { createWorkerBridge } from '../../lib/workerBridge.ts';

export { STORED_FRAME_TYPE };

/** Set once the worker has failed; later frames are encoded on the main thread. */
let broken = false;

const bridge = createWorkerBridge<FrameWorkerApi>({
  start: () => new Worker(new URL('../../../workers/frame/frame.worker.ts', import.meta.url), { type: 'module', name: 'frame' }),
  idleMs: 8_000,
  onWorkerError: () => {
    broken = true;
  },
});

function workerSupported(): boolean {
  return !broken && typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap !== 'undefined';
}

/** The part of a canvas the main thread's encoder uses. */
type BlobCanvas = Pick<HTMLCanvasElement, 'toBlob'>;

/** canvas.toBlob as a promise, as the stored frame's type; rejects (SecurityError) on a tainted canvas. */
export function encodeOnMainThread(canvas: BlobCanvas): Promise<Blob> {
  return new Promise((resolve, reject) => {
    // toBlob throws at once on a tainted canvas; the executor turns that into a rejection.
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The canvas could not encode the frame'))), STORED_FRAME_TYPE);
  });
}

async function encodeInWorker(canvas: HTMLCanvasElement): Promise<Blob> {
  const bitmap = await createImageBitmap(canvas);
  return bridge.run((api) => api.encode(Comlink.transfer(bitmap, [bitmap])));
}

/** The canvas as the stored full-resolution image, encoded off the main thread where the browser allows. */
export async function encodeFrame(canvas: HTMLCanvasElement): Promise<Blob> {
  if (!workerSupported()) return encodeOnMainThread(canvas);
  try {
    return await encodeInWorker(canvas);
  } catch (error) {
    // A tainted canvas fails the same way on both; anything else gets the main thread's encoder.
    if ((error as { name?: unknown })?.name === 'SecurityError') throw error;
    return encodeOnMainThread(canvas);
  }
}

/**
 * The VideoFrame at its display size as the stored full-resolution image, drawn and encoded in
 * the worker (the frame is transferred, not copied); on the main thread where that fails. Closes the frame.
 */
export async function encodeVideoFrame(frame: VideoFrame): Promise<Blob> {
  if (workerSupported()) {
    // A clone goes to the worker, so the frame is still here should the worker fail.
    const copy = frame.clone();
    try {
      const blob = await bridge.run((api) => api.encode(Comlink.transfer(copy, [copy])));
      frame.close();
      return blob;
    } catch {
      copy.close();
    }
  }
  try {
    const canvas = document.createElement('canvas');
    canvas.width = frame.displayWidth;
    canvas.height = frame.displayHeight;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('No 2D canvas');
    ctx.drawImage(frame, 0, 0, canvas.width, canvas.height);
    return await encodeOnMainThread(canvas);
  } finally {
    frame.close();
  }
}
