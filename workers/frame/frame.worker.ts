/**
 * The frame worker: encodes a captured frame's full-resolution JPEG off the main thread, so the
 * page paints the new screenshot's slot while the encoder works (a 1080p frame takes 15 to 30 ms
 * to encode, a 4K frame several times that).
 */
import * as Comlink from 'comlink';
import type { FrameWorkerApi } from './api.ts';

const api: FrameWorkerApi = {
  async jpeg(frame, quality) {
    try {
      const width = 'displayWidth' in frame ? frame.displayWidth : frame.width;
      const height = 'displayHeight' in frame ? frame.displayHeight : frame.height;
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('No 2D context in the frame worker');
      ctx.drawImage(frame, 0, 0, width, height);
      return await canvas.convertToBlob({ type: 'image/jpeg', quality });
    } finally {
      frame.close();
    }
  },
};

Comlink.expose(api);
