import { useEffect, useId, useRef, useState } from 'react';
import type { CropRect, Size } from '../../../shared/print.ts';
import { CORNER_HANDLES, cropToPercent, imageScale } from '../../components/crop-box/cropBox.ts';
import { useCropBoxHandlers } from '../../components/crop-box/useCropBoxHandlers.ts';
import { minCropSide, pictureRect } from './videoCrop.ts';
import './CropOverlay.css';

interface CropOverlayProps {
  /** The video's own pixel size; the box is in these pixels. */
  video: Size;
  rect: CropRect;
  onChange: (rect: CropRect) => void;
  disabled: boolean;
}

/**
 * The crop box over the player's picture (not over the bars around it). Only the box takes
 * pointer input, so the video's own controls stay usable around it: cropping works paused or playing.
 */
export function CropOverlay({ video, rect, onChange, disabled }: CropOverlayProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const pictureRef = useRef<HTMLDivElement>(null);
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

  const handlers = useCropBoxHandlers({
    rect,
    bounds: video,
    onChange,
    disabled,
    measure: () => {
      const width = pictureRef.current?.getBoundingClientRect().width ?? 0;
      return width > 0 ? { scale: imageScale(video, width), min: minCropSide(video, width) } : null;
    },
  });

  return (
    <div className="crop-overlay" ref={rootRef}>
      <p className="visually-hidden" id={hintId}>
        Drag the box to move it, drag a corner to resize it. Arrow keys move it by 1 pixel, with Shift by 10; Alt and arrow keys resize it.
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
            {...handlers}
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
