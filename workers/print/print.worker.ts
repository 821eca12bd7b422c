/**
 * The print worker: decodes an image Blob, runs the print pipeline and encodes PNG, off the main
 * thread. Blobs cross threads by reference and pixel buffers are transferred, never copied.
 */
import * as Comlink from 'comlink';
import type { RgbaImage } from '../../shared/pixels/image.ts';
import type { PrintResult, PrintWorkerApi } from './api.ts';
import { runPrintPipeline, type StageTimings } from './pipeline.ts';

async function decode(blob: Blob): Promise<RgbaImage> {
  const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  return { width: canvas.width, height: canvas.height, data };
}

async function encode(image: RgbaImage, type: 'image/png' | 'image/jpeg', quality?: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d')!;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(image.data.buffer as ArrayBuffer, image.data.byteOffset, image.data.length), image.width, image.height), 0, 0);
  return canvas.convertToBlob(quality === undefined ? { type } : { type, quality });
}

const api: PrintWorkerApi = {
  async prepare(input, options): Promise<PrintResult> {
    const timings: StageTimings = {};
    let start = performance.now();
    const source = await decode(input);
    timings.decode = performance.now() - start;
    const out = runPrintPipeline(source, options, timings);
    start = performance.now();
    const blob = await encode(out, 'image/png');
    timings.encode = performance.now() - start;
    return { blob, width: out.width, height: out.height, timings };
  },
  async crop(input, rect, type = 'image/jpeg'): Promise<PrintResult> {
    const out = runPrintPipeline(await decode(input), { crop: rect, featherRadius: 0, printArea: null });
    return { blob: await encode(out, type, type === 'image/jpeg' ? 0.92 : undefined), width: out.width, height: out.height };
  },
};

Comlink.expose(api);
