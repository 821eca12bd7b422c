/** The first step of the capture chain: the frame on screen, drawn from the <video> itself. */
import { CANVAS_JPEG_QUALITY } from '../../../shared/constants.ts';
import type { Size } from '../../../shared/print.ts';
import type { PresentedFrame } from './presentedFrame.ts';
import { rememberInlineUrl } from '../../lib/inlineImages.ts';
import { encodeFrame, encodeVideoFrame } from './frameEncoder.ts';
import { dataUrlToBlob } from './serverCapture.ts';
import { yuvToPreviewRgba, type YuvPlanes } from './yuvPreview.ts';
import type { CapturedFrame } from './types.ts';

/**
 * The box a screenshot slot's preview fits in when the page does not say how large its slots
 * are (CaptureRequest.previewBox): about twice a slot's CSS size (six slots across the 1100 px
 * page, 16:9), so it stays sharp on high-density screens.
 */
export const PREVIEW_BOX = { width: 384, height: 216 } as const;
/** The widest preview box a page may ask for (768x432): the cost of the preview grows with its area. */
const MAX_PREVIEW_WIDTH = 768;

/**
 * The preview box for a slot `cssWidth` CSS pixels wide (16:9) on a screen of `pixelRatio`
 * device pixels per CSS pixel: the device pixels it covers, at most MAX_PREVIEW_WIDTH wide; the default
 * box for a slot of no size (not laid out).
 */
export function previewBoxFor(cssWidth: number, pixelRatio: number): Size {
  if (!(cssWidth > 0) || !(pixelRatio > 0)) return PREVIEW_BOX;
  const width = Math.min(MAX_PREVIEW_WIDTH, Math.ceil(cssWidth * pixelRatio));
  return { width, height: Math.ceil((width * 9) / 16) };
}
/** The slot's preview is the spec's canvas JPEG (0.9); the full frame is kept lossless (frameEncoder.ts). */
const PREVIEW_JPEG_QUALITY = CANVAS_JPEG_QUALITY;

/** The preview's pixel size: `width` x `height` scaled down (never up) to fit `box`, aspect ratio kept. */
export function previewSize(width: number, height: number, box: Size = PREVIEW_BOX): Size {
  const scale = Math.min(1, box.width / width, box.height / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Resolves once the page has painted `frames` more frames (the new slot's preview is painted in
 * the first or second), or after 150 ms in a tab that paints nothing (hidden).
 */
function afterPaints(frames: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 150);
    const next = (left: number) =>
      requestAnimationFrame(() => {
        if (left > 1) return next(left - 1);
        setTimeout(() => {
          clearTimeout(timer);
          resolve();
        }, 0);
      });
    next(frames);
  });
}

function canvasOf(width: number, height: number): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas');
  ctx.imageSmoothingQuality = 'low';
  return { canvas, ctx };
}

/**
 * The frame scaled down to the preview's size: drawn at twice the preview's size (at most its own),
 * then halved while more than twice as large (bilinear filtering at exactly half size averages each
 * 2x2 block), then drawn at the preview's size: little aliasing, at a fraction of the cost of the
 * browser's 'medium'/'high' smoothing of a large source.
 */
function drawPreview(frame: CanvasImageSource, width: number, height: number, box: Size): HTMLCanvasElement {
  const size = previewSize(width, height, box);
  let source: CanvasImageSource = frame;
  let w = width;
  let h = height;
  if (w > size.width * 2 && h > size.height * 2) {
    const first = canvasOf(size.width * 2, size.height * 2);
    first.ctx.drawImage(frame, 0, 0, first.canvas.width, first.canvas.height);
    source = first.canvas;
    w = first.canvas.width;
    h = first.canvas.height;
  }
  while (w >= size.width * 2 && h >= size.height * 2 && w >= 4) {
    const half = canvasOf(Math.round(w / 2), Math.round(h / 2));
    half.ctx.drawImage(source, 0, 0, half.canvas.width, half.canvas.height);
    source = half.canvas;
    w = half.canvas.width;
    h = half.canvas.height;
  }
  const preview = canvasOf(size.width, size.height);
  preview.ctx.drawImage(source, 0, 0, size.width, size.height);
  return preview.canvas;
}

/** The matrix a frame's colours were encoded with, as the browser reads it (untagged HD as BT.709). */
function matrixOf(frame: VideoFrame): YuvPlanes['matrix'] | null {
  const matrix = frame.colorSpace.matrix;
  if (matrix === 'bt709') return 'bt709';
  if (matrix === 'bt470bg' || matrix === 'smpte170m') return 'bt601';
  if (matrix === null || matrix === undefined) return (frame.visibleRect?.height ?? frame.codedHeight) >= 720 ? 'bt709' : 'bt601';
  return null;
}

/**
 * The planes of the last frame previewed, kept for the next capture: a 1080p frame is 3 MB, and
 * memory the page already has is copied into far sooner than fresh memory is mapped in.
 */
let planes: Uint8Array<ArrayBuffer> | null = null;

/**
 * The preview made from the frame's own YUV planes (yuvPreview.ts), or null for a frame whose
 * pixel format or colour matrix that does not handle (the browser draws those).
 */
async function previewFromPlanes(frame: VideoFrame, width: number, height: number, box: Size): Promise<HTMLCanvasElement | null> {
  const format = frame.format;
  const matrix = matrixOf(frame);
  const visible = frame.visibleRect;
  if ((format !== 'I420' && format !== 'NV12') || !matrix || !visible) return null;
  const bytes = frame.allocationSize();
  // Taken while in use, so a capture overlapping this one gets a buffer of its own.
  const buffer = planes && planes.length >= bytes ? planes : new Uint8Array(bytes);
  planes = null;
  const data = buffer.subarray(0, bytes);
  const size = previewSize(width, height, box);
  let rgba: Uint8ClampedArray<ArrayBuffer>;
  try {
    const layout = await frame.copyTo(data);
    performance.mark('capture:planes-copied');
    rgba = yuvToPreviewRgba({ format, width: visible.width, height: visible.height, data, layout, matrix, fullRange: frame.colorSpace.fullRange ?? false }, size.width, size.height);
  } finally {
    planes = buffer;
  }
  const preview = canvasOf(size.width, size.height);
  preview.ctx.putImageData(new ImageData(rgba, size.width, size.height), 0, 0);
  performance.mark('capture:preview-drawn');
  return preview.canvas;
}

/**
 * Encodes the frame: first a slot-sized preview JPEG, with which the step answers, then the
 * full-resolution JPEG at quality 0.9 of the same frame, handed back as a promise. The preview is
 * encoded at once (toDataURL, a millisecond or two at this size) where toBlob would wait for the
 * page's next idle time, a frame or more. The full-resolution image is drawn and encoded once the
 * page has painted the slot (two frames later), in the frame worker (frameEncoder.ts), so it never
 * holds up that paint: from the VideoFrame where there is one (the main thread then never draws
 * the full frame at all, and the preview comes from its YUV planes), else from the canvas drawn at
 * capture time.
 * Fails when the frame could not be drawn (no decodable frame) and when the canvas is tainted (a
 * video from another origin without CORS: the preview drawn from it throws SecurityError).
 */
export async function encodePresentedFrame(frame: PresentedFrame, previewBox: Size = PREVIEW_BOX): Promise<Omit<CapturedFrame, 'source'>> {
  const videoFrame = frame.videoFrame;
  // This step owns the VideoFrame from here on.
  frame.videoFrame = null;
  const source = videoFrame ?? frame.canvas;
  if (!source) throw frame.drawError ?? new Error('The frame was not drawn');
  const width = videoFrame ? videoFrame.displayWidth : frame.canvas!.width;
  const height = videoFrame ? videoFrame.displayHeight : frame.canvas!.height;
  let previewUrl: string;
  try {
    const fromPlanes = videoFrame ? await previewFromPlanes(videoFrame, width, height, previewBox).catch(() => null) : null;
    previewUrl = (fromPlanes ?? drawPreview(source, width, height, previewBox)).toDataURL('image/jpeg', PREVIEW_JPEG_QUALITY);
  } catch (error) {
    videoFrame?.close();
    throw error;
  }
  const preview = dataUrlToBlob(previewUrl);
  rememberInlineUrl(preview, previewUrl);
  // For bench:capture's breakdown of where a capture's time goes.
  performance.mark('capture:preview-encoded');
  const blob = afterPaints(2).then(() => (videoFrame ? encodeVideoFrame(videoFrame) : encodeFrame(frame.canvas!)));
  // Whoever takes the frame awaits it; a capture dropped in between must not report it unhandled.
  blob.catch(() => undefined);
  return { blob, preview, width, height, timestamp: frame.time };
}
