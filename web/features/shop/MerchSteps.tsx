import { Link } from 'react-router';
import './MerchSteps.css';

interface MerchStepsProps {
  screenshotCount: number;
  capturing: boolean;
  canCapture: boolean;
  onSelectScreenshot: () => void;
  canMakeMerch: boolean;
  makingMerch: boolean;
  onMakeMerch: () => void;
}

/**
 * The video page's three steps. The pulse marks what to do next: step 2 while only the first
 * frame (the thumbnail) is there, step 3 once there is more than one screenshot.
 */
export function MerchSteps({ screenshotCount, capturing, canCapture, onSelectScreenshot, canMakeMerch, makingMerch, onMakeMerch }: MerchStepsProps) {
  const next = screenshotCount > 1 ? 3 : 2;
  const stepClass = (step: number) => `merch-steps__step${step === next ? ' merch-steps__step--pulse' : ''}${step < next ? ' merch-steps__step--done' : ''}`;
  const current = (step: number) => (step === next ? ('step' as const) : undefined);

  return (
    <ol className="merch-steps" aria-label="Merch steps">
      <li className={stepClass(1)} aria-current={current(1)}>
        <Link className="merch-steps__action" to="/">
          <span className="merch-steps__number" aria-hidden="true">
            1
          </span>
          <span className="visually-hidden">Step 1: </span>
          Choose Video
        </Link>
      </li>
      <li className={stepClass(2)} aria-current={current(2)}>
        <button
          type="button"
          className="merch-steps__action"
          onClick={onSelectScreenshot} disabled={!canCapture || capturing} aria-busy={capturing || undefined}>
          <span className="merch-steps__number" aria-hidden="true">
            2
          </span>
          <span className="visually-hidden">Step 2: </span>
          Select Screenshot
        </button>
      </li>
      <li className={stepClass(3)} aria-current={current(3)}>
        <button
          type="button"
          className="merch-steps__action"
          onClick={onMakeMerch}
          disabled={!canMakeMerch}
          aria-busy={makingMerch || undefined}
        >
          <span className="merch-steps__number" aria-hidden="true">
            3
          </span>
          <span className="visually-hidden">Step 3: </span>
          Make Merchandise
        </button>
      </li>
    </ol>
  );
}
