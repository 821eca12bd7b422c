import { memo, type Ref } from 'react';
import { formatDuration } from '../../lib/formatDuration.ts';
import { MAX_SCREENSHOTS, type PendingScreenshot } from '../../stores/pendingMerchRecord.ts';
import { useObjectUrl } from '../../lib/useObjectUrl.ts';
import './ScreenshotGrid.css';

interface ScreenshotGridProps {
  screenshots: readonly PendingScreenshot[];
  loading: boolean;
  onDelete: (id: string) => void;
  onCrop: (shot: PendingScreenshot) => void;
  /** The list element, for the size of its slots (slotImageWidth). */
  listRef?: Ref<HTMLUListElement>;
}

const SOURCE_LABELS: Record<PendingScreenshot['source'], string> = {
  thumbnail: 'Thumbnail',
  canvas: 'Frame',
  wasm: 'Frame',
  server: 'Frame',
  crop: 'Crop',
};

/**
 * The six screenshot slots, filled in order; an empty slot says so. A slot shows the
 * screenshot's small preview when it has one (a capture's full-resolution JPEG may still be on
 * its way; its Crop waits for it), else the image itself. Renders only when its props change.
 */
export const ScreenshotGrid = memo(function ScreenshotGrid({ screenshots, loading, onDelete, onCrop, listRef }: ScreenshotGridProps) {
  return (
    <ul ref={listRef} className="shots" aria-label="Screenshots" aria-busy={loading || undefined}>
      {Array.from({ length: MAX_SCREENSHOTS }, (_, index) => {
        const shot = screenshots[index];
        return (
          <li key={shot?.id ?? `empty-${index}`} className={`shots__slot${shot ? '' : ' shots__slot--empty'}`} aria-busy={(shot && !shot.blob) || undefined}>
            {shot ? <FilledSlot shot={shot} number={index + 1} onDelete={onDelete} onCrop={onCrop} /> : <span className="shots__empty">No screenshot</span>}
          </li>
        );
      })}
    </ul>
  );
});

/** The CSS width a slot's image is shown at (all slots are alike), or 0 before layout. */
export function slotImageWidth(list: HTMLUListElement | null): number {
  const slot = list?.firstElementChild;
  return slot instanceof HTMLElement ? slot.clientWidth : 0;
}

function FilledSlot({ shot, number, onDelete, onCrop }: { shot: PendingScreenshot; number: number; onDelete: (id: string) => void; onCrop: (shot: PendingScreenshot) => void }) {
  const url = useObjectUrl(shot.preview ?? shot.blob);
  const time = formatDuration(shot.timestamp);
  return (
    <>
      <img
        className="shots__image"
        src={url}
        alt={`Screenshot ${number}`}
        width={shot.width}
        height={shot.height}
        data-source={shot.source}
        data-timestamp={shot.timestamp ?? ''}
      />
      <span className="shots__caption">
        {SOURCE_LABELS[shot.source]}
        {time !== null && shot.source !== 'thumbnail' && ` at ${time}`}
        <span className="shots__size">
          {shot.width} × {shot.height}
        </span>
      </span>
      <div className="shots__actions">
        <button
          type="button"
          className="shots__action"
          aria-label={`Crop screenshot ${number}`}
          title="Crop for print"
          disabled={!shot.blob}
          onClick={() => onCrop(shot)}
        >
          Crop
        </button>
        <button type="button" className="shots__action shots__action--delete" aria-label={`Delete screenshot ${number}`} title="Delete" onClick={() => onDelete(shot.id)}>
          ×
        </button>
      </div>
    </>
  );
}
