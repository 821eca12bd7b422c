import { lazy, Suspense, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import type { CropToolResult } from './CropToolModal.tsx';
import { formatPixelSize } from '../../components/crop-box/cropBox.ts';
import { DpiBadge } from '../../components/DpiBadge.tsx';
import { INVALID_IMAGE_MESSAGE, PRINT_DOWNLOAD_NAME } from './printToolMessages.ts';
import { useImageSlot, type ShownImage } from './useImageSlot.ts';
import { renderUpscaleAction } from './upscale/renderUpscaleAction.tsx';
import './TestCropToolPage.css';

const CropToolModal = lazy(async () => ({ default: (await import('./CropToolModal.tsx')).CropToolModal }));

/** /test-crop-tool: pick an image, crop it or make its print file, compare and download the PNG. */
export function TestCropToolPage() {
  useDocumentTitle('Crop tool test');
  const [before, setBefore] = useImageSlot();
  const [after, setAfter] = useImageSlot();
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; dpi: number; sizeLabel: string } | null>(null);
  const [open, setOpen] = useState(false);
  // Only the newest pick may land; an older file that decodes later is dropped.
  const pick = useRef(0);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    const ticket = ++pick.current;
    setMessage(null);
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setError(INVALID_IMAGE_MESSAGE);
      return;
    }
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.src = url;
    try {
      await img.decode();
    } catch {
      URL.revokeObjectURL(url);
      if (ticket === pick.current) setError(INVALID_IMAGE_MESSAGE);
      return;
    }
    if (ticket !== pick.current) {
      URL.revokeObjectURL(url);
      return;
    }
    setError(null);
    setBefore({ blob: file, url, width: img.naturalWidth, height: img.naturalHeight });
    setAfter(null);
  };

  const onDone = (result: CropToolResult) => {
    setOpen(false);
    setAfter(result.image);
    setMessage(result.kind === 'print' ? { text: result.message, dpi: result.dpi, sizeLabel: result.sizeLabel } : null);
  };

  return (
    <section className="crop-test" aria-labelledby="crop-test-title">
      <h1 id="crop-test-title">Crop tool test</h1>
      <div className="crop-test__controls">
        <label className="field">
          <span className="field__label">Choose an image</span>
          <input
            className="field__control"
            type="file"
            accept="image/*"
            aria-invalid={error ? true : undefined}
            onChange={(event) => void onFile(event)}
          />
        </label>
        <button type="button" className="button button--primary" disabled={!before} onClick={() => setOpen(true)}>
          Open Crop Tool
        </button>
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      {message && (
        <div className="crop-test__result">
          <p className="crop-test__message" role="status">
            {message.text}
          </p>
          <DpiBadge dpi={message.dpi} label={`Print file at ${message.sizeLabel}`} />
        </div>
      )}

      <div className="crop-test__compare">
        {before && <ImageFigure label="Before" image={before} />}
        {after && (
          <ImageFigure label="After" image={after}>
            <a className="button button--ghost" href={after.url} download={PRINT_DOWNLOAD_NAME}>
              Download PNG
            </a>
          </ImageFigure>
        )}
      </div>

      {open && before && (
        <Suspense fallback={null}>
          <CropToolModal image={before} onCancel={() => setOpen(false)} onDone={onDone} renderUpscale={renderUpscaleAction} />
        </Suspense>
      )}
    </section>
  );
}

function ImageFigure({ label, image, children }: { label: string; image: ShownImage; children?: ReactNode }) {
  return (
    <figure className="crop-test__figure" aria-label={label}>
      <img className="crop-test__image" src={image.url} alt={`${label} image`} />
      <figcaption className="crop-test__caption">
        <strong>{label}</strong> <span className="crop-test__size">{formatPixelSize(image)}</span>
      </figcaption>
      {children}
    </figure>
  );
}
