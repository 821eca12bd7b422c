import { useCallback, useId, useRef, useState, type HTMLAttributes, type KeyboardEvent, type RefObject } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
// The stylesheet is bundled: the page's CSP refuses the <style> react-easy-crop would inject.
import 'react-easy-crop/react-easy-crop.css';
import { clampZoom, keyMove, keyZoom, restrictOffset, ZOOM_MAX, ZOOM_MIN, ZOOM_STEP, type Extent, type Point } from './cropperKeys.ts';
import './PrintCropper.css';

interface PrintCropperProps {
  imageUrl: string;
  /** Width over height of the crop box. */
  aspect: number;
  disabled: boolean;
  /** Id of the text that says how to use the cropper. */
  describedBy: string;
  /** The crop in image pixels, on every move, zoom and change of aspect. */
  onCropPixels: (area: Area) => void;
}

const noop = () => undefined;

/**
 * The print crop: a box locked to the print's shape over the image, which moves and zooms under
 * it (drag, wheel, pinch, the zoom slider), and from the keyboard when the box has focus.
 */
export function PrintCropper({ imageUrl, aspect, disabled, describedBy, onCropPixels }: PrintCropperProps) {
  const [offset, setOffset] = useState<Point>({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(ZOOM_MIN);
  const media = useRef<Extent | null>(null);
  const cropArea = useRef<Extent | null>(null);
  const focused = useRef(false);
  const zoomId = useId();

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled || event.altKey || event.ctrlKey || event.metaKey) return;
    const zoomed = keyZoom(zoom, event.key);
    if (zoomed !== null) {
      event.preventDefault();
      setZoom(zoomed);
      return;
    }
    const moved = keyMove(offset, event.key, event.shiftKey);
    if (!moved) return;
    event.preventDefault();
    if (media.current && cropArea.current) setOffset(restrictOffset(moved, media.current, cropArea.current, zoom));
  };

  // The box appears once the image is measured; it then takes focus, once, for keyboard users.
  const setCropperRef = useCallback((ref: RefObject<HTMLDivElement | null>) => {
    if (focused.current) return;
    focused.current = true;
    requestAnimationFrame(() => ref.current?.focus({ preventScroll: true }));
  }, []);

  const cropperProps = {
    role: 'group',
    'aria-label': 'Crop box',
    'aria-describedby': describedBy,
    onKeyDown,
  } satisfies HTMLAttributes<HTMLDivElement>;

  return (
    <div className="print-cropper">
      <div className="print-cropper__stage">
        <Cropper
          image={imageUrl}
          crop={offset}
          zoom={zoom}
          aspect={aspect}
          minZoom={ZOOM_MIN}
          maxZoom={ZOOM_MAX}
          zoomWithScroll={!disabled}
          onCropChange={disabled ? noop : setOffset}
          onZoomChange={disabled ? noop : (next) => setZoom(clampZoom(next))}
          onCropAreaChange={(_, pixels) => onCropPixels(pixels)}
          onCropComplete={(_, pixels) => onCropPixels(pixels)}
          setMediaSize={(size) => {
            media.current = size;
          }}
          setCropSize={(size) => {
            cropArea.current = size;
          }}
          setCropperRef={setCropperRef}
          disableAutomaticStylesInjection
          classes={{ containerClassName: 'print-cropper__container', cropAreaClassName: 'print-cropper__area' }}
          mediaProps={{ alt: 'Image to crop' }}
          cropperProps={cropperProps}
        />
      </div>
      <div className="print-cropper__zoom">
        <label htmlFor={zoomId}>Zoom</label>
        <input
          id={zoomId}
          type="range"
          min={ZOOM_MIN}
          max={ZOOM_MAX}
          step={ZOOM_STEP}
          value={zoom}
          disabled={disabled}
          aria-valuetext={`${Math.round(zoom * 100)}%`}
          onChange={(event) => setZoom(clampZoom(Number(event.target.value)))}
        />
      </div>
    </div>
  );
}
