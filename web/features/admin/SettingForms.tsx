import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { MAINTENANCE_BANNER_MAX_CHARS } from '../../../shared/schemas/moderation.ts';
import { centsToDollars, checkThreshold } from './adminRules.ts';
import { useSaveSetting, type SaveState } from './useSaveSetting.ts';

interface SettingFormProps {
  title: string;
  state: SaveState;
  onSubmit: () => void;
  children: ReactNode;
}

/** One setting's form: its heading, its field, Save, and the saved note. */
function SettingForm({ title, state, onSubmit, children }: SettingFormProps) {
  const ids = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="admin-setting" aria-labelledby={`${ids}-title`} onSubmit={submit} noValidate>
      <h2 id={`${ids}-title`} className="admin__heading">
        {title}
      </h2>
      {children}
      <div className="admin-setting__actions">
        <button type="submit" className="button button--primary" disabled={state.kind === 'saving'}>
          {state.kind === 'saving' ? 'Saving...' : 'Save'}
        </button>
        <span role="status" className="admin-setting__saved">
          {state.kind === 'saved' ? 'Saved.' : ''}
        </span>
      </div>
    </form>
  );
}

function FieldError({ id, state }: { id: string; state: SaveState }) {
  if (state.kind !== 'error') return null;
  return (
    <p id={id} className="field__error" role="alert">
      {state.message}
    </p>
  );
}

export function ModerationSetting({ initial }: { initial: boolean }) {
  const ids = useId();
  const [value, setValue] = useState(initial);
  const { state, save, reset } = useSaveSetting('moderation_required');
  return (
    <SettingForm title="Moderation" state={state} onSubmit={() => void save(value)}>
      <label className="admin-setting__check" htmlFor={`${ids}-value`}>
        <input
          id={`${ids}-value`}
          type="checkbox"
          checked={value}
          aria-describedby={`${ids}-hint ${ids}-error`}
          aria-invalid={state.kind === 'error' || undefined}
          onChange={(e) => {
            setValue(e.target.checked);
            reset();
          }}
        />
        New uploads need approval
      </label>
      <p id={`${ids}-hint`} className="field__hint">
        When on, a new video appears in the feed, its channel and search only once an admin approves it.
      </p>
      <FieldError id={`${ids}-error`} state={state} />
    </SettingForm>
  );
}

export function ThresholdSetting({ initialCents }: { initialCents: number }) {
  const ids = useId();
  const [text, setText] = useState(() => centsToDollars(initialCents));
  const { state, save, fail, reset } = useSaveSetting('payout_threshold_default_cents');
  const submit = async () => {
    const checked = checkThreshold(text);
    if ('error' in checked) return fail(checked.error);
    const settings = await save(checked.cents);
    if (settings) setText(centsToDollars(settings.payout_threshold_default_cents));
  };
  return (
    <SettingForm title="Default payout threshold" state={state} onSubmit={() => void submit()}>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-value`}>
          Threshold (USD)
        </label>
        <div className="admin-setting__money">
          <span aria-hidden="true">$</span>
          <input
            id={`${ids}-value`}
            className="field__control"
            inputMode="decimal"
            autoComplete="off"
            value={text}
            aria-describedby={`${ids}-hint ${ids}-error`}
            aria-invalid={state.kind === 'error' || undefined}
            onChange={(e) => {
              setText(e.target.value);
              reset();
            }}
          />
        </div>
        <p id={`${ids}-hint`} className="field__hint">
          The payout threshold a new creator starts with.
        </p>
        <FieldError id={`${ids}-error`} state={state} />
      </div>
    </SettingForm>
  );
}

export function BannerSetting({ initial }: { initial: string }) {
  const ids = useId();
  const [text, setText] = useState(initial);
  const { state, save, reset } = useSaveSetting('maintenance_banner');
  return (
    <SettingForm title="Maintenance banner" state={state} onSubmit={() => void save(text.trim())}>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-value`}>
          Banner text
        </label>
        <textarea
          id={`${ids}-value`}
          className="field__control"
          maxLength={MAINTENANCE_BANNER_MAX_CHARS}
          rows={3}
          value={text}
          aria-describedby={`${ids}-hint ${ids}-count ${ids}-error`}
          aria-invalid={state.kind === 'error' || undefined}
          onChange={(e) => {
            setText(e.target.value);
            reset();
          }}
        />
        <p id={`${ids}-hint`} className="field__hint">
          Shown to everyone at the top of every page; leave empty for none. Visitors see a change on their next page load.
        </p>
        <p id={`${ids}-count`} className="field__hint" aria-live="polite">
          {text.length} / {MAINTENANCE_BANNER_MAX_CHARS} characters
        </p>
        <FieldError id={`${ids}-error`} state={state} />
      </div>
    </SettingForm>
  );
}
