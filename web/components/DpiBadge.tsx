import { DPI_LEVEL_LABELS, dpiLevel } from '../../shared/print.ts';
import './DpiBadge.css';

interface DpiBadgeProps {
  dpi: number;
  /** What the DPI is of, for screen readers (for example 'Mug' or '8x10'). */
  label?: string;
}

/**
 * The one print-quality badge: the effective DPI with a calm three-level tone (ready at 300 and
 * above, acceptable from 150, low below). It informs; it never blocks or shouts.
 */
export function DpiBadge({ dpi, label }: DpiBadgeProps) {
  const level = dpiLevel(dpi);
  const text = `${DPI_LEVEL_LABELS[level]} · ${dpi} DPI`;
  return (
    // role="img": a name of its own (what the DPI is of) is allowed on it, where a plain span may not carry one.
    <span className={`dpi-badge dpi-badge--${level}`} data-level={level} role="img" aria-label={label ? `${label}: ${text}` : text}>
      <span className="dpi-badge__dot" aria-hidden="true" />
      {text}
    </span>
  );
}
