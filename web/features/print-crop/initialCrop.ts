import { CROP_INITIAL_FRACTION, CROP_INITIAL_MAX_PX, CROP_MIN_PX } from '../../../shared/constants.ts';
import { clampCrop, type CropRect, type Size } from '../../../shared/print.ts';

/** Spec: a square of up to 300 px or 80 % of the smaller side, centred. */
export function initialCrop(image: Size): CropRect {
  const side = Math.max(1, Math.min(CROP_INITIAL_MAX_PX, Math.round(Math.min(image.width, image.height) * CROP_INITIAL_FRACTION)));
  return clampCrop(
    { x: Math.round((image.width - side) / 2), y: Math.round((image.height - side) / 2), width: side, height: side },
    image,
    CROP_MIN_PX,
  );
}
