/**
 * A helper of the print worker: resamples bands of rows of a print file and encodes each as its
 * piece of the PNG, so a large print is resampled and encoded on several cores at once. Started
 * by the print worker and ended with it.
 */
import * as Comlink from 'comlink';
import { Lanczos3Resampler, type RgbaImage } from '../../shared/pixels/image.ts';
import { resampleBandToPng, type BandScratch } from '../../shared/pixels/print-pipeline.ts';

export interface BandTask {
  /** Which print this band is of (the print worker counts them). */
  print: number;
  /** The print's size. */
  width: number;
  height: number;
  /** The rows of this band, [y0, y1). */
  y0: number;
  y1: number;
}

/** A band of the PNG (an IDAT chunk) in a Blob, what the file's end needs of it, and its times. */
export interface BandResult {
  blob: Blob;
  /** Adler-32 and length of the band's uncompressed bytes (png.ts PngPiece). */
  adler: number;
  length: number;
  resampleMs: number;
  /** The encode, and the copy of the band's bytes into its Blob. */
  encodeMs: number;
}

export interface BandWorkerApi {
  /**
   * Rows [y0, y1) of the print, resampled from `source` and encoded (print-pipeline.ts
   * resampleBandToPng). `source` comes with the first band of each print this helper is given
   * and is kept for the print's other bands (null).
   */
  band(task: BandTask, source: RgbaImage | null): BandResult;
}

/** The print being made and its resampler (filter taps, the ring of rows resampled across). */
let current: { print: number; resampler: Lanczos3Resampler } | null = null;
/**
 * A few rows of pixels, and the buffer the last band's PNG bytes were written into (copied into
 * its Blob since): kept while this helper lives, for the next band to write over.
 */
const scratch: BandScratch = {};
let pngBuffer: ArrayBuffer | undefined;

const api: BandWorkerApi = {
  band({ print, width, height, y0, y1 }, source) {
    if (source) current = { print, resampler: new Lanczos3Resampler(source, width, height) };
    if (current?.print !== print) throw new Error(`A band of print ${print}, whose source this helper was not given`);
    const { piece, resampleMs, encodeMs } = resampleBandToPng(current.resampler, y0, y1, scratch, pngBuffer, () => performance.now());
    const start = performance.now();
    // Copied into the Blob here, on this helper's core; the Blob crosses threads by reference.
    const blob = new Blob([piece.chunks as Uint8Array<ArrayBuffer>]);
    pngBuffer = piece.chunks.buffer as ArrayBuffer;
    return { blob, adler: piece.adler, length: piece.length, resampleMs, encodeMs: encodeMs + performance.now() - start };
  },
};

Comlink.expose(api);
