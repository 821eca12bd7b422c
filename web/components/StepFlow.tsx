import './StepFlow.css';

export const FLOW_STEPS = ['Choose Video', 'Select Screenshot', 'Make Merch'] as const;

/** The three-step flow of spec section 1; `current` (1-3) marks where the visitor is. */
export function StepFlow({ current }: { current: 1 | 2 | 3 }) {
  return (
    <ol className="step-flow" aria-label="How FrameMerch works">
      {FLOW_STEPS.map((label, index) => {
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
