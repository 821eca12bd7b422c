/**
 * The frame worker: encodes a captured frame's full-resolution image (a lossless PNG,
 * stored-frame.ts) off the main thread, so the page paints the new screenshot's slot while the
 * encoder works (a PNG takes longer to make than a JPEG, and a 4K frame four times a 1080p one).
 */
import * as Comlink from 'comlink';
import type { FrameWorkerApi } from './api.ts';
import { encodeStoredFrame } from './stored-frame.ts';

/**
 * The canvas of the last frame, kept for the next one of the same size: a viewer captures several
 * frames of one video in a row, and drawing into memory the worker already has is quicker than
 * having a new 8 MB (1080p) canvas mapped in each time.
 */
let canvas: OffscreenCanvas | null = null;

const api: FrameWorkerApi = {
  async encode(frame) {
    try {
      const width = 'displayWidth' in frame ? frame.displayWidth : frame.width;
      const height = 'displayHeight' in frame ? frame.displayHeight : frame.height;
      if (!canvas || canvas.width !== width || canvas.height !== height) canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('No 2D context in the frame worker');
      // Cleared as a new canvas starts, so a frame with transparency shows nothing of the last one.
      ctx.clearRect(0, 0, width, height);
      ctx.drawImage(frame, 0, 0, width, height);
      return await encodeStoredFrame(canvas);
    } finally {
      frame.close();
    }
  },
};

Comlink.expose(api);
