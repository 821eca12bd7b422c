import { useId } from 'react';
import { PRINT_DPI } from '../../../../shared/print.ts';
import type { UpscaledBlob } from '../../../../workers/upscale/api.ts';
import { chooseFactor } from '../../../../workers/upscale/tiles.ts';
import { useUpscale, type UpscaleSource } from './useUpscale.ts';
import './UpscaleAction.css';

export interface UpscaleActionProps {
  /**
   * The pixels to upscale: a Blob (PNG or JPEG), or a function that makes one when the viewer
   * presses the button (the print tool cuts the crop only then). Blobs cross to the worker by
   * reference, and the crop, not the whole frame, is what needs the extra pixels.
   */
  source: UpscaleSource;
  /** The DPI the source gives the chosen print size now. */
  currentDpi: number;
  /** The chosen print size, as the viewer reads it ('8x10', 'T-Shirt'). */
  targetLabel: string;
  /** The upscaled image, as PNG, with its pixel size. */
  onResult: (result: UpscaledBlob) => void;
  disabled?: boolean;
  /** The source shown is already the upscaled one: say so instead of offering the button. */
  upscaled?: boolean;
}

/** 'Upscale with AI': enlarges a crop that prints below 300 DPI, in a worker, with progress and Cancel. */
export function UpscaleAction({ source, currentDpi, targetLabel, onResult, disabled = false, upscaled = false }: UpscaleActionProps) {
  const { state, start, cancel } = useUpscale(onResult);
  const hintId = useId();
  const factor = chooseFactor(currentDpi, PRINT_DPI);
  const percent = state.status === 'running' ? Math.round(state.progress * 100) : 0;

  return (
    <div className="upscale-action">
      {state.status === 'running' ? (
        <>
          <div className="upscale-action__bar" role="progressbar" aria-label="Upscaling" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <span className="upscale-action__fill" style={{ width: `${percent}%` }} />
          </div>
          <span className="upscale-action__percent" aria-hidden="true">
            {percent}%
          </span>
          <button type="button" className="button button--ghost" onClick={cancel}>
            Cancel upscale
          </button>
        </>
      ) : upscaled ? (
        <span className="upscale-action__hint">Upscaled with AI</span>
      ) : (
        <>
          <button type="button" className="button button--ghost" aria-describedby={hintId} disabled={disabled} onClick={() => void start(source, factor)}>
            Upscale with AI
          </button>
          <span className="upscale-action__hint" id={hintId}>
            {factor}x in your browser, for about {Math.round(currentDpi * factor)} DPI at {targetLabel}
          </span>
        </>
      )}
      {state.status === 'error' && (
        <p className="upscale-action__error" role="alert">
          {state.message}
        </p>
      )}
    </div>
  );
}
