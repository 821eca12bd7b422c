/**
 * The place in the print crop tool where an upscale action sits: beside the chosen size's DPI
 * badge, while the crop prints below 300 DPI there. The action is handed the crop and gives
 * back a larger image of it; the print file is then made from that image by the same feather
 * and 300 DPI pipeline, until the crop or the size changes.
 */
import type { ReactNode } from 'react';
import type { CropRect, Size } from '../../../shared/print.ts';
import type { ImageResult } from './printProcessing.ts';

export interface UpscaleSlotProps {
  /** The crop, cut pixel for pixel from the full-resolution image as PNG, when asked for. */
  getCroppedImage: (signal: AbortSignal) => Promise<ImageResult>;
  /** The crop in the full-resolution image's pixels. */
  crop: CropRect;
  /** The chosen print size and its area, turned as it will print. */
  size: { id: string; label: string; widthIn: number; heightIn: number };
  /** The effective DPI the crop gives that size now. */
  dpi: number;
  /** The pixel size the print file of this crop has at 300 DPI: what an upscale should reach. */
  targetSize: Size;
  /** True while the tool is cropping or making a print file. */
  disabled: boolean;
  /** Hands back the upscaled crop (any size; its DPI is judged like the crop's). */
  onUpscaled: (image: ImageResult) => void;
}

export type RenderUpscale = (props: UpscaleSlotProps) => ReactNode;
