import { useRef, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../components/Icon.tsx';
import { useBrowse } from '../../stores/useBrowse.ts';
import { searchTarget } from './searchTarget.ts';

interface SearchFormProps {
  /** On mobile the form opens over the navbar; this closes it again. */
  onClose: () => void;
  autoFocus: boolean;
}

export function SearchForm({ onClose, autoFocus }: SearchFormProps) {
  const text = useBrowse((s) => s.searchText);
  const setText = useBrowse((s) => s.setSearchText);
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = searchTarget(text);
    if (target === null) {
      input.current?.focus();
      return;
    }
    onClose();
    void navigate(target);
  };

  return (
    <form className="navbar__search" role="search" onSubmit={submit}>
      <button type="button" className="icon-button navbar__search-close" aria-label="Close search" onClick={onClose}>
        <Icon name="back" />
      </button>
      <input
        ref={input}
        className="navbar__search-input"
        type="search"
        aria-label="Search videos"
        placeholder="Search channels"
        autoComplete="off"
        enterKeyHint="search"
        // Focus only when the visitor asked for the mobile search box.
        autoFocus={autoFocus}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="navbar__search-submit" aria-label="Search">
        <Icon name="search" size={20} />
      </button>
    </form>
  );
}
