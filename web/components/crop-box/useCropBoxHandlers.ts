/**
 * Pointer and keyboard handlers of a crop box (the print crop tool's and the player's): drag
 * the box or a corner handle (`data-handle` on the element pressed), arrow keys to nudge, Alt
 * and arrow keys to resize. The box is in image pixels; `measure` says, when a drag begins, how many image pixels one display
 * pixel is and the minimum side in image pixels, or null when nothing is shown yet.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import type { CropRect, Size } from '../../../shared/print.ts';
import { CORNER_HANDLES, dragCrop, nudgeCrop, resizeCropByKey, type CropHandle } from './cropBox.ts';

interface Drag {
  handle: CropHandle;
  start: CropRect;
  clientX: number;
  clientY: number;
  scale: number;
  min: number | undefined;
}

const isHandle = (value: string | undefined): value is CropHandle => value === 'move' || (CORNER_HANDLES as readonly string[]).includes(value ?? '');

export function useCropBoxHandlers(args: {
  rect: CropRect;
  bounds: Size;
  onChange: (rect: CropRect) => void;
  disabled: boolean;
  measure: () => { scale: number; min?: number } | null;
}) {
  const { rect, bounds, onChange, disabled, measure } = args;
  const dragRef = useRef<Drag | null>(null);
  const endDrag = () => {
    dragRef.current = null;
  };
  return {
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      if (event.button !== 0 || disabled) return;
      const handle = (event.target as HTMLElement).closest<HTMLElement>('[data-handle]')?.dataset.handle;
      const m = measure();
      if (!isHandle(handle) || !m || m.scale <= 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      event.currentTarget.focus();
      dragRef.current = { handle, start: rect, clientX: event.clientX, clientY: event.clientY, scale: m.scale, min: m.min };
    },
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
      const drag = dragRef.current;
      if (!drag) return;
      const dx = (event.clientX - drag.clientX) * drag.scale;
      const dy = (event.clientY - drag.clientY) * drag.scale;
      onChange(dragCrop(drag.start, drag.handle, dx, dy, bounds, drag.min));
    },
    onPointerUp: endDrag,
    onPointerCancel: endDrag,
    onLostPointerCapture: endDrag,
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      if (disabled) return;
      const next = event.altKey
        ? resizeCropByKey(rect, event.key, event.shiftKey, bounds, measure()?.min)
        : nudgeCrop(rect, event.key, event.shiftKey, bounds);
      if (!next) return;
      event.preventDefault();
      onChange(next);
    },
  };
}
