import { useId, useState } from 'react';
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import {
  calculatorView,
  EXAMPLE_FIELDS,
  FIELD_LABELS,
  SHARE_LABEL,
  type CalculatorField,
  type CalculatorFields,
} from './earningsCalculator.ts';

const FIELDS: CalculatorField[] = ['price', 'overhead', 'commission', 'units'];

/**
 * What merch made from a creator's videos could earn: four fields and four figures. The
 * figures sit in one status region, so a screen reader hears them change; with a field
 * that cannot be read, its message shows under it and no figures show at all.
 */
export function EarningsCalculator({ initial = EXAMPLE_FIELDS }: { initial?: CalculatorFields }) {
  const ids = useId();
  const [fields, setFields] = useState(initial);
  const view = calculatorView(fields);
  const errors = view.kind === 'invalid' ? view.errors : {};

  return (
    <section className="subscription-tiers__panel earnings-calculator" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="subscription-tiers__heading">
        Earnings calculator
      </h2>
      <p className="subscription-tiers__muted">
        Profit per item is the price less overhead and commission; you keep {CREATOR_SHARE_PERCENT}% of it.
      </p>

      <form className="earnings-calculator__fields" noValidate onSubmit={(e) => e.preventDefault()}>
        {FIELDS.map((field) => {
          const id = `${ids}-${field}`;
          const error = errors[field];
          return (
            <div key={field} className="field">
              <label className="field__label" htmlFor={id}>
                {FIELD_LABELS[field]}
              </label>
              <input
                id={id}
                className="field__control"
                type="text"
                inputMode={field === 'units' ? 'numeric' : 'decimal'}
                autoComplete="off"
                value={fields[field]}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(e) => setFields((prev) => ({ ...prev, [field]: e.target.value }))}
              />
              {error && (
                <p id={`${id}-error`} className="field__error">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </form>

      {/* A status region (polite, read whole), so each change is heard with its labels. */}
      <div className="earnings-calculator__results" role="status" aria-label="Your earnings">
        {view.kind === 'figures' ? (
          <dl className="earnings-calculator__figures">
            <Figure term="Profit per item" value={view.figures.profitPerItem} loss={view.figures.loss} />
            <Figure term="Profit per month" value={view.figures.profitPerMonth} loss={view.figures.loss} />
            <Figure term={SHARE_LABEL} value={view.figures.sharePerItem} strong />
            <Figure term="Your share per month" value={view.figures.sharePerMonth} strong />
          </dl>
        ) : (
          <p className="subscription-tiers__muted">Fix the highlighted fields to see your earnings.</p>
        )}
        {view.kind === 'figures' && view.figures.loss && (
          <p className="earnings-calculator__loss">At this price each item sells at a loss, so there is no profit to share.</p>
        )}
      </div>
    </section>
  );
}

function Figure({ term, value, loss = false, strong = false }: { term: string; value: string; loss?: boolean; strong?: boolean }) {
  const modifier = loss ? ' earnings-calculator__value--loss' : strong ? ' earnings-calculator__value--share' : '';
  return (
    <div className="earnings-calculator__figure">
      <dt className="earnings-calculator__term">{term}</dt>
      <dd className={`earnings-calculator__value${modifier}`}>
        {value}
        {loss && <span className="visually-hidden"> (loss)</span>}
      </dd>
    </div>
  );
}
