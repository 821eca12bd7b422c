import { useId, type ReactNode } from 'react';

/** The filters above an admin list: a labelled row that wraps on narrow screens. */
export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="admin-filters" role="search" aria-label={label}>
      {children}
    </div>
  );
}

interface SearchFieldProps {
  label: string;
  placeholder: string;
  maxLength: number;
  value: string;
  onChange: (value: string) => void;
}

export function SearchField({ label, placeholder, maxLength, value, onChange }: SearchFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="field__control" type="search" maxLength={maxLength} placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

interface SelectFieldProps<V extends string | number> {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}

/** A select over a fixed set of values; the value handed back is one of `options`' own. */
export function SelectField<V extends string | number>({ label, value, options, onChange }: SelectFieldProps<V>) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__control"
        value={String(value)}
        onChange={(e) => {
          const picked = options.find((o) => String(o.value) === e.target.value);
          if (picked) onChange(picked.value);
        }}
      >
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
