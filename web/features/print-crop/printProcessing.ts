/**
 * Crop and print-file generation: in the print worker where the browser can run it, else a
 * main-thread canvas crop and the server's print route (data URLs in and out).
 */
import { printFileOptions } from '../../../shared/pixels/print-pipeline.ts';
import { PRINT_DPI, type CropRect } from '../../../shared/print.ts';
import { processPrintQualityRoute } from '../../../shared/schemas/print.ts';
import { request } from '../../lib/api.ts';
import { cropImage, preparePrint, printWorkerSupported } from './printWorker.ts';

export interface ImageResult {
  blob: Blob;
  width: number;
  height: number;
}

export function cropToPng(source: Blob, rect: CropRect, signal: AbortSignal): Promise<ImageResult> {
  return printWorkerSupported() ? cropImage(source, rect, 'image/png', signal) : canvasCrop(source, rect, signal);
}

export async function makePrintFile(source: Blob, rect: CropRect, area: { widthIn: number; heightIn: number }, signal: AbortSignal): Promise<ImageResult> {
  if (printWorkerSupported()) {
    return preparePrint(source, printFileOptions(rect, area), signal);
  }
  const cropped = await canvasCrop(source, rect, signal);
  const reply = await request(processPrintQualityRoute, {
    body: {
      thumbnail_data: await blobToDataUrl(cropped.blob),
      print_dpi: PRINT_DPI,
      edge_feather: true,
      print_area_in: { width_in: area.widthIn, height_in: area.heightIn },
    },
    signal,
  });
  const blob = await (await fetch(reply.screenshot, { signal })).blob();
  return { blob, width: reply.width, height: reply.height };
}

async function canvasCrop(source: Blob, rect: CropRect, signal: AbortSignal): Promise<ImageResult> {
  const url = URL.createObjectURL(source);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    signal.throwIfAborted();
    const canvas = document.createElement('canvas');
    canvas.width = rect.width;
    canvas.height = rect.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('Canvas is not available');
    context.drawImage(img, rect.x, rect.y, rect.width, rect.height, 0, 0, rect.width, rect.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('Could not encode the image');
    signal.throwIfAborted();
    return { blob, width: rect.width, height: rect.height };
  } finally {
    URL.revokeObjectURL(url);
  }
}

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the image'));
    reader.readAsDataURL(blob);
  });
}
