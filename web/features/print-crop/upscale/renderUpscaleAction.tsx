import type { ReactNode } from 'react';
import { effectiveDpi, type Size } from '../../../../shared/print.ts';
import { UpscaleAction } from './UpscaleAction.tsx';

/** What the print crop tool's upscale slot hands its action (the part this action uses). */
export interface UpscaleSlot {
  getCroppedImage: (signal: AbortSignal) => Promise<{ blob: Blob }>;
  crop: Size;
  size: { label: string; widthIn: number; heightIn: number };
  dpi: number;
  disabled: boolean;
  onUpscaled: (image: { blob: Blob; width: number; height: number }) => void;
}

/** The print crop tool's upscale slot filled with 'Upscale with AI': the crop is cut when the viewer presses it. */
export function renderUpscaleAction(slot: UpscaleSlot): ReactNode {
  // The tool judges an upscaled crop by the upscaled image: a DPI above the crop's own says this
  // crop has been upscaled already (a second run would start again from the same crop).
  const upscaled = slot.dpi > effectiveDpi(slot.crop, slot.size);
  return (
    <UpscaleAction
      upscaled={upscaled}
      source={async (signal) => (await slot.getCroppedImage(signal)).blob}
      currentDpi={slot.dpi}
      targetLabel={slot.size.label}
      disabled={slot.disabled}
      onResult={({ blob, width, height }) => slot.onUpscaled({ blob, width, height })}
    />
  );
}
