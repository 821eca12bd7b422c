import { useEffect, useId, useRef, useState } from 'react';
import type { CropRect } from '../../../shared/print.ts';
import { Modal } from '../../components/Modal.tsx';
import { isAbortError } from '../../lib/ApiError.ts';
import { CORNER_HANDLES, cropToPercent, formatPixelSize, imageScale } from '../../components/crop-box/cropBox.ts';
import { initialCrop } from './initialCrop.ts';
import { useCropBoxHandlers } from '../../components/crop-box/useCropBoxHandlers.ts';
import { cropToPng, makePrintFile, type ImageResult } from './printProcessing.ts';
import { DEFAULT_PRINT_AREA_ID, PRINT_AREAS, printArea, targetRows } from './printTargets.ts';
import { CROP_FAILED_MESSAGE, CROP_TOOL_TITLE, featherErrorMessage } from './printToolMessages.ts';
import type { ShownImage } from './useImageSlot.ts';
import './CropToolModal.css';

export type CropToolResult = { kind: 'crop' | 'print'; image: ImageResult; crop: CropRect };

interface CropToolModalProps {
  image: ShownImage;
  onCancel: () => void;
  onDone: (result: CropToolResult) => void;
}

/** 'Simple Print Crop Tool': a movable, resizable crop box over the image, print-target checks and the two actions. */
export function CropToolModal({ image, onCancel, onDone }: CropToolModalProps) {
  const size = { width: image.width, height: image.height };
  const [crop, setCrop] = useState<CropRect>(() => initialCrop(size));
  const [areaId, setAreaId] = useState(DEFAULT_PRINT_AREA_ID);
  const [working, setWorking] = useState<'crop' | 'print' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const hintId = useId();

  // Closing the tool (Cancel, Escape, unmount) throws away any work under way.
  useEffect(() => () => abortRef.current?.abort(), []);

  const cancel = () => {
    abortRef.current?.abort();
    onCancel();
  };

  const handlers = useCropBoxHandlers({
    rect: crop,
    bounds: size,
    onChange: setCrop,
    disabled: working !== null,
    measure: () => (imgRef.current ? { scale: imageScale(size, imgRef.current.getBoundingClientRect().width) } : null),
  });

  const run = async (kind: 'crop' | 'print') => {
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setWorking(kind);
    setError(null);
    const area = printArea(areaId);
    try {
      const result = kind === 'crop' ? await cropToPng(image.blob, crop, controller.signal) : await makePrintFile(image.blob, crop, area, controller.signal);
      if (controller.signal.aborted) return;
      onDone({ kind, image: result, crop });
    } catch (cause) {
      if (controller.signal.aborted || isAbortError(cause)) return;
      setError(kind === 'crop' ? CROP_FAILED_MESSAGE : featherErrorMessage(cause instanceof Error ? cause.message : undefined));
      setWorking(null);
    }
  };

  const rows = targetRows(crop);
  const box = cropToPercent(crop, size);

  return (
    <Modal title={CROP_TOOL_TITLE} onClose={cancel}>
      <div className="crop-tool">
        <div className="crop-tool__editor">
          <div
            className="crop-tool__stage"
            {...handlers}
            tabIndex={-1}
          >
            <img ref={imgRef} className="crop-tool__image" src={image.url} alt="Image to crop" draggable={false} />
            <div
              className="crop-tool__box"
              style={box}
              data-handle="move"
              role="group"
              aria-label="Crop box"
              aria-describedby={hintId}
              tabIndex={0}
              data-autofocus
            >
              {CORNER_HANDLES.map((corner) => (
                <span key={corner} className={`crop-tool__handle crop-tool__handle--${corner}`} data-handle={corner} aria-hidden="true" />
              ))}
            </div>
          </div>
          <p className="field__hint" id={hintId}>
            Drag the box to move it, drag a corner to resize it. Arrow keys move it by 1 pixel, with Shift by 10.
          </p>
          <p className="crop-tool__readout">
            Crop{' '}
            <output aria-label="Crop size">{formatPixelSize(crop)}</output> at{' '}
            <output aria-label="Crop position">
              {crop.x}, {crop.y}
            </output>
          </p>
        </div>

        <div className="crop-tool__side">
          <table className="crop-tool__targets" aria-label="Print targets">
            <thead>
              <tr>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col">DPI</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.target}>
                  <th scope="row">{row.target}</th>
                  <td className={row.status === 'OK for Print' ? 'crop-tool__ok' : 'crop-tool__small'}>{row.status}</td>
                  <td>{row.dpi ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>

          <label className="field">
            <span className="field__label">Print area</span>
            <select className="field__control" value={areaId} onChange={(event) => setAreaId(event.target.value)} disabled={working !== null}>
              {PRINT_AREAS.map((area) => (
                <option key={area.id} value={area.id}>
                  {area.label}
                </option>
              ))}
            </select>
          </label>

          {working && (
            <div className="crop-tool__progress" role="status">
              <progress aria-label={working === 'crop' ? 'Cropping' : 'Generating print file'} />
              <span>{working === 'crop' ? 'Cropping...' : 'Applying feather and generating the print file...'}</span>
            </div>
          )}
          {error && (
            <p className="crop-tool__error" role="alert">
              {error}
            </p>
          )}

          <div className="crop-tool__actions">
            <button type="button" className="button button--ghost" onClick={cancel}>
              Cancel
            </button>
            <button type="button" className="button button--ghost" onClick={() => void run('crop')} disabled={working !== null}>
              Apply Crop
            </button>
            <button type="button" className="button button--primary" onClick={() => void run('print')} disabled={working !== null}>
              Apply Feather &amp; Generate Print Quality
            </button>
          </div>
        </div>
      </div>
    </Modal>
  );
}
