import { useEffect, useId, useRef, useState } from 'react';
import type { Area } from 'react-easy-crop';
import { dpiLevel, effectiveDpi, printFileSize, PRINT_DPI, type CropRect, type DpiLevel } from '../../../shared/print.ts';
import { DpiBadge } from '../../components/DpiBadge.tsx';
import { Modal } from '../../components/Modal.tsx';
import { formatPixelSize } from '../../components/crop-box/cropBox.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import { PrintCropper } from './PrintCropper.tsx';
import { cropToPng, makePrintFile, type ImageResult } from './printProcessing.ts';
import {
  cropFromAreaPixels,
  defaultOrientation,
  DEFAULT_PRINT_SIZE_ID,
  PRINT_SIZES,
  printSize,
  sizeArea,
  sizeAspect,
  sizeRows,
  smallerSizes,
  type Orientation,
} from './printSizes.ts';
import { PrintSizeTable } from './PrintSizeTable.tsx';
import { CROP_FAILED_MESSAGE, CROP_TOOL_TITLE, featherErrorMessage, printOutcome, smallerSizeHint } from './printToolMessages.ts';
import type { RenderUpscale } from './upscaleSeam.ts';
import type { ShownImage } from './useImageSlot.ts';
import './CropToolModal.css';

export type CropToolResult =
  | { kind: 'crop'; image: ImageResult; crop: CropRect }
  | {
      kind: 'print';
      image: ImageResult;
      crop: CropRect;
      /** The chosen size, the DPI the print file's source gives it, its level and the message to show. */
      sizeLabel: string;
      dpi: number;
      level: Exclude<DpiLevel, 'low'>;
      message: string;
    };

interface CropToolModalProps {
  image: ShownImage;
  onCancel: () => void;
  onDone: (result: CropToolResult) => void;
  /** An upscale action, shown beside the chosen size's badge while the crop prints below 300 DPI there. */
  renderUpscale?: RenderUpscale;
}

const rectKey = (rect: CropRect) => `${rect.x},${rect.y},${rect.width},${rect.height}`;

/**
 * 'Simple Print Crop Tool': a crop box locked to the chosen print size's shape, the DPI and
 * status of every size as the crop changes, and the spec's three actions. A print file is made
 * only for a crop that prints at 150 DPI or more; below that the tool says so and offers a
 * smaller size (or an upscale, where one is offered).
 */
export function CropToolModal({ image, onCancel, onDone, renderUpscale }: CropToolModalProps) {
  const bounds = { width: image.width, height: image.height };
  const [sizeId, setSizeId] = useState(DEFAULT_PRINT_SIZE_ID);
  const [orientation, setOrientation] = useState<Orientation>(() => defaultOrientation(bounds));
  const [crop, setCrop] = useState<CropRect | null>(null);
  const [upscaled, setUpscaled] = useState<{ image: ImageResult; key: string } | null>(null);
  const [working, setWorking] = useState<'crop' | 'print' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const hintId = useId();
  const sizeSelectId = useId();

  // Closing the tool (Cancel, Escape, unmount) throws away any work under way.
  useEffect(() => () => abortRef.current?.abort(), []);

  const cancel = () => {
    abortRef.current?.abort();
    onCancel();
  };

  const size = printSize(sizeId);
  const area = sizeArea(size, orientation);
  const chosen = { id: size.id, label: size.label, ...area };
  // An upscaled image stands in for the crop it was made from, and only for that crop.
  const source = crop && upscaled?.key === rectKey(crop) ? upscaled.image : null;
  const sourceSize = source ?? crop;
  const dpi = sourceSize ? effectiveDpi(sourceSize, area) : 0;
  const rows = crop ? sizeRows(crop, orientation, size.id) : [];
  const offer = smallerSizes(rows, size)[0];
  const level = dpiLevel(dpi);
  const hint = smallerSizeHint(offer && { label: offer.size.label, dpi: offer.dpi });

  const onCropPixels = (pixels: Area) => {
    const next = cropFromAreaPixels(pixels, bounds);
    setCrop((last) => (last && rectKey(last) === rectKey(next) ? last : next));
    setError(null);
  };

  const chooseSize = (id: string) => {
    setSizeId(id);
    setError(null);
  };

  const run = async (kind: 'crop' | 'print') => {
    if (!crop) return;
    const outcome = printOutcome(dpi, size.label);
    if (kind === 'print' && !outcome.generate) {
      // Never a print file scaled up many times over with a success message: the plain words instead.
      setError(`${outcome.message} ${hint}`);
      return;
    }
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setWorking(kind);
    setError(null);
    try {
      if (kind === 'crop') {
        const result = await cropToPng(image.blob, crop, controller.signal);
        if (!controller.signal.aborted) onDone({ kind, image: result, crop });
        return;
      }
      const result = source
        ? await makePrintFile(source.blob, { x: 0, y: 0, width: source.width, height: source.height }, area, controller.signal)
        : await makePrintFile(image.blob, crop, area, controller.signal);
      if (controller.signal.aborted || !outcome.generate) return;
      onDone({ kind, image: result, crop, sizeLabel: size.label, dpi, level: outcome.level, message: outcome.message });
    } catch (cause) {
      if (controller.signal.aborted || isAbortError(cause)) return;
      setError(kind === 'crop' ? CROP_FAILED_MESSAGE : featherErrorMessage(cause instanceof Error ? cause.message : undefined));
      setWorking(null);
    }
  };

  return (
    <Modal title={CROP_TOOL_TITLE} onClose={cancel}>
      <div className="crop-tool">
        <div className="crop-tool__editor">
          <PrintCropper imageUrl={image.url} aspect={sizeAspect(size, orientation)} disabled={working !== null} describedBy={hintId} onCropPixels={onCropPixels} />
          <p className="field__hint" id={hintId}>
            Drag the image to move the crop; zoom with the slider, the wheel or a pinch. With the box focused, arrow keys move the crop (Shift for
            larger steps) and + and - zoom.
          </p>
          <p className="crop-tool__readout">
            Crop <output aria-label="Crop size">{crop ? formatPixelSize(crop) : '—'}</output> at{' '}
            <output aria-label="Crop position">{crop ? `${crop.x}, ${crop.y}` : '—'}</output>
          </p>
        </div>

        <div className="crop-tool__side">
          <div className="crop-tool__size">
            <label className="field">
              <span className="field__label">Print size</span>
              <select id={sizeSelectId} className="field__control" value={sizeId} onChange={(event) => chooseSize(event.target.value)} disabled={working !== null}>
                {PRINT_SIZES.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="crop-tool__orientation" disabled={!size.rotatable || working !== null}>
              <legend className="field__label">Orientation</legend>
              {(['landscape', 'portrait'] as const).map((value) => (
                <label key={value} className="crop-tool__radio">
                  <input type="radio" name={`${sizeSelectId}-orientation`} value={value} checked={orientation === value} onChange={() => setOrientation(value)} />
                  {value === 'landscape' ? 'Landscape' : 'Portrait'}
                </label>
              ))}
            </fieldset>
          </div>

          <div className="crop-tool__chosen" aria-live="polite">
            <p className="crop-tool__dpi">
              Effective DPI at {size.label}: <output aria-label="Effective DPI">{crop ? dpi : '—'}</output>
              {source && <span className="crop-tool__upscaled"> (upscaled to {formatPixelSize(source)})</span>}
            </p>
            <div className="crop-tool__badge-row">
              {crop && <DpiBadge dpi={dpi} label={`Chosen size ${size.label}`} />}
              {/* The upscale action's place: only while the chosen size prints below 300 DPI. */}
              {crop && level !== 'ready' && renderUpscale?.({
                getCroppedImage: (signal) => cropToPng(image.blob, crop, signal),
                crop,
                size: chosen,
                dpi,
                targetSize: printFileSize(crop, area, PRINT_DPI),
                disabled: working !== null,
                onUpscaled: (result) => setUpscaled({ image: result, key: rectKey(crop) }),
              })}
            </div>
            {crop && level === 'low' && (
              <p className="crop-tool__low">
                {printOutcome(dpi, size.label).message} {hint}{' '}
                {offer && (
                  <button type="button" className="button button--ghost crop-tool__offer" onClick={() => chooseSize(offer.size.id)} disabled={working !== null}>
                    Use {offer.size.label}
                  </button>
                )}
              </p>
            )}
          </div>

          <PrintSizeTable rows={rows} chosenId={sizeId} />

        </div>

        <div className="crop-tool__footer">
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
            <button type="button" className="button button--ghost" onClick={() => void run('crop')} disabled={working !== null || !crop}>
              Apply Crop
            </button>
            <button type="button" className="button button--primary" onClick={() => void run('print')} disabled={working !== null || !crop}>
              Apply Feather &amp; Generate Print Quality
            </button>
          </div>
        </div>
      </div>
    </Modal>
  );
}
