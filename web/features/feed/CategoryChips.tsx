import { VIDEO_CATEGORIES } from '../../../shared/categories.ts';
import type { FeedCategory } from '../../stores/useBrowse.ts';
import './CategoryChips.css';

const CHIPS: ReadonlyArray<{ slug: FeedCategory; name: string }> = [{ slug: 'all', name: 'All' }, ...VIDEO_CATEGORIES];

interface CategoryChipsProps {
  value: FeedCategory;
  onChange: (category: FeedCategory) => void;
}

export function CategoryChips({ value, onChange }: CategoryChipsProps) {
  return (
    <div className="chips" role="group" aria-label="Filter videos by category">
      {CHIPS.map((chip) => (
        <button
          key={chip.slug}
          type="button"
          className="chip"
          aria-pressed={chip.slug === value}
          onClick={() => onChange(chip.slug)}
        >
          {chip.name}
        </button>
      ))}
    </div>
  );
}
