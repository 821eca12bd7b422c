import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { CropRect, Size } from '../../../shared/print.ts';
import { CORNER_HANDLES, cropToPercent, dragCrop, nudgeCrop, type CropHandle } from '../../components/print-crop/cropGeometry.ts';
import { minCropSide, pictureRect, videoScale } from './videoCrop.ts';
import './CropOverlay.css';

interface CropOverlayProps {
  /** The video's own pixel size; the box is in these pixels. */
  video: Size;
  rect: CropRect;
  onChange: (rect: CropRect) => void;
  disabled: boolean;
}

interface Drag {
  handle: CropHandle;
  start: CropRect;
  clientX: number;
  clientY: number;
  /** Video pixels per display pixel when the drag began. */
  scale: number;
  min: number;
}

const isHandle = (value: string | undefined): value is CropHandle => value === 'move' || (CORNER_HANDLES as readonly string[]).includes(value ?? '');

/**
 * The crop box over the player's picture (not over the bars around it). Only the box takes
 * pointer input, so the video's own controls stay usable around it: cropping works paused or playing.
 */
export function CropOverlay({ video, rect, onChange, disabled }: CropOverlayProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const pictureRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<Drag | null>(null);
  const [frame, setFrame] = useState<Size | null>(null);
  const hintId = useId();

  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setFrame({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, []);

  const picture = frame ? pictureRect(video, frame) : null;

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || disabled) return;
    const handle = (event.target as HTMLElement).closest<HTMLElement>('[data-handle]')?.dataset.handle;
    const width = pictureRef.current?.getBoundingClientRect().width ?? 0;
    if (!isHandle(handle) || width <= 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    dragRef.current = {
      handle,
      start: rect,
      clientX: event.clientX,
      clientY: event.clientY,
      scale: videoScale(video, width),
      min: minCropSide(video, width),
    };
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const drag = dragRef.current;
    if (!drag) return;
    const dx = (event.clientX - drag.clientX) * drag.scale;
    const dy = (event.clientY - drag.clientY) * drag.scale;
    onChange(dragCrop(drag.start, drag.handle, dx, dy, video, drag.min));
  };

  const endDrag = () => {
    dragRef.current = null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    const next = nudgeCrop(rect, event.key, event.shiftKey, video);
    if (!next) return;
    event.preventDefault();
    onChange(next);
  };

  return (
    <div className="crop-overlay" ref={rootRef}>
      <p className="visually-hidden" id={hintId}>
        Drag the box to move it, drag a corner to resize it. Arrow keys move it by 1 pixel, with Shift by 10.
      </p>
      {picture && picture.width > 0 && (
        <div
          className="crop-overlay__picture"
          ref={pictureRef}
          style={{ left: picture.x, top: picture.y, width: picture.width, height: picture.height }}
        >
          <div
            className="crop-overlay__box"
            style={cropToPercent(rect, video)}
            data-handle="move"
            role="group"
            aria-label="Crop box"
            aria-describedby={hintId}
            tabIndex={0}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
            onLostPointerCapture={endDrag}
            onKeyDown={onKeyDown}
          >
            {CORNER_HANDLES.map((corner) => (
              <span key={corner} className={`crop-overlay__handle crop-overlay__handle--${corner}`} data-handle={corner} aria-hidden="true" />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
