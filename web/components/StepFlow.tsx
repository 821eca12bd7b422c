import './StepFlow.css';

export const FLOW_STEPS = ['Choose Video', 'Select Screenshot', 'Make Merch'] as const;

interface StepFlowProps {
  current: 1 | 2 | 3;
  /** The steps' labels; the home page's flow of spec section 1 unless given (checkout has its own). */
  steps?: readonly string[];
  label?: string;
}

/** A numbered steps bar, by default the three-step flow of spec section 1; `current` (1-3) marks where the visitor is. */
export function StepFlow({ current, steps = FLOW_STEPS, label: listLabel = 'How FrameMerch works' }: StepFlowProps) {
  return (
    <ol className="step-flow" aria-label={listLabel}>
      {steps.map((label, index) => {
        const step = index + 1;
        const state = step === current ? 'current' : step < current ? 'done' : 'todo';
        return (
          <li key={label} className={`step-flow__step step-flow__step--${state}`} aria-current={step === current ? 'step' : undefined}>
            <span className="step-flow__number" aria-hidden="true">
              {step}
            </span>
            <span className="step-flow__label">{label}</span>
          </li>
        );
      })}
    </ol>
  );
}
