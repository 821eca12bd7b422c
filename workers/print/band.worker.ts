/**
 * A helper of the print worker: resamples one band of rows of a print file, so a large print
 * is resampled on several cores at once. Started by the print worker and ended with it.
 */
import * as Comlink from 'comlink';
import { resampleLanczos3Rows, type RgbaImage } from '../../shared/pixels/image.ts';

export interface BandWorkerApi {
  resampleRows(image: RgbaImage, width: number, height: number, y0: number, y1: number): RgbaImage;
}

const api: BandWorkerApi = {
  resampleRows(image, width, height, y0, y1) {
    const band = resampleLanczos3Rows(image, width, height, y0, y1);
    return Comlink.transfer(band, [band.data.buffer as ArrayBuffer]);
  },
};

Comlink.expose(api);
