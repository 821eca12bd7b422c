/**
 * Crop geometry over the player. The <video> shows its picture scaled to fit (object-fit:
 * contain) in a 16:9 frame, so bars may sit beside or above it; the crop box lives in video
 * pixels and is drawn over the picture only.
 */
import { CROP_DEFAULT_PX, CROP_MIN_PX } from '../../../shared/constants.ts';
import { clampCrop, fitInside, type CropRect, type Size } from '../../../shared/print.ts';
import { imageScale } from '../../components/crop-box/cropBox.ts';

/** Where the picture of a `video`-sized video is drawn inside a `frame`-sized box (object-fit: contain), in display pixels. */
export function pictureRect(video: Size, frame: Size): CropRect {
  if (video.width <= 0 || video.height <= 0 || frame.width <= 0 || frame.height <= 0) return { x: 0, y: 0, width: 0, height: 0 };
  const fitted = fitInside(video, frame);
  return { x: (frame.width - fitted.width) / 2, y: (frame.height - fitted.height) / 2, width: fitted.width, height: fitted.height };
}

/** The smallest box side, in video pixels: `CROP_MIN_PX` as the viewer sees it. */
export function minCropSide(video: Size, displayWidth: number): number {
  return CROP_MIN_PX * imageScale(video, displayWidth);
}

/** The first box: `CROP_DEFAULT_PX` display pixels square, centred on the picture, in video pixels. */
export function defaultVideoCrop(video: Size, displayWidth: number): CropRect {
  const scale = imageScale(video, displayWidth);
  const side = CROP_DEFAULT_PX * scale;
  return clampCrop({ x: (video.width - side) / 2, y: (video.height - side) / 2, width: side, height: side }, video, minCropSide(video, displayWidth));
}

/**
 * The box in the pixels of a captured frame. The frame normally has the video's own size; a
 * frame of another size (a smaller server capture, the thumbnail) gets the same part of the picture.
 */
export function cropForFrame(rect: CropRect, video: Size, frame: Size): CropRect {
  const sx = frame.width / video.width;
  const sy = frame.height / video.height;
  if (sx === 1 && sy === 1) return rect;
  return clampCrop({ x: rect.x * sx, y: rect.y * sy, width: rect.width * sx, height: rect.height * sy }, frame, 1);
}
