/**
 * A helper of the print worker: resamples one band of rows of a print file, so a large print
 * is resampled on several cores at once. Started by the print worker and ended with it.
 */
import * as Comlink from 'comlink';
import { resampleLanczos3Rows, type RgbaImage } from '../../shared/pixels/image.ts';

export interface BandWorkerApi {
  /** The band, written into `reuse` (the buffer of a band this helper sent earlier, handed back) when it is large enough. */
  resampleRows(image: RgbaImage, width: number, height: number, y0: number, y1: number, reuse?: ArrayBuffer): RgbaImage;
}

const api: BandWorkerApi = {
  resampleRows(image, width, height, y0, y1, reuse) {
    const band = resampleLanczos3Rows(image, width, height, y0, y1, reuse ? new Uint8ClampedArray(reuse) : undefined);
    return Comlink.transfer(band, [band.data.buffer as ArrayBuffer]);
  },
};

Comlink.expose(api);
