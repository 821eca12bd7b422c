import { useId } from 'react';
import type { ScreenshotChoice, ScreenshotSelection } from './productPage.ts';
import './ScreenshotPicker.css';

interface ScreenshotPickerProps {
  choices: readonly ScreenshotChoice[];
  selected: ScreenshotSelection | null;
  onSelect: (selection: ScreenshotSelection) => void;
}

/** 'Select Your Screenshot': the thumbnail and every captured screenshot, one chosen (a radio group). */
export function ScreenshotPicker({ choices, selected, onSelect }: ScreenshotPickerProps) {
  const name = useId();
  return (
    <fieldset className="screenshot-picker">
      <legend className="screenshot-picker__legend">Select Your Screenshot</legend>
      <div className="screenshot-picker__grid">
        {choices.map((c) => {
          const checked = c.selection === selected;
          return (
            <label key={String(c.selection)} className={`screenshot-picker__option${checked ? ' screenshot-picker__option--checked' : ''}`}>
              <input
                type="radio"
                className="screenshot-picker__radio"
                name={name}
                checked={checked}
                onChange={() => onSelect(c.selection)}
                aria-label={c.label}
              />
              <img src={c.url} crossOrigin="anonymous" alt="" className="screenshot-picker__image" loading="lazy" />
              <span className="screenshot-picker__label" aria-hidden="true">
                {c.label}
                {c.size ? ` · ${c.size.width}×${c.size.height}` : ''}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
