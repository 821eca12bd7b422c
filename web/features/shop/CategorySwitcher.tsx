import { Link, useLocation } from 'react-router';
import { CATEGORY_CHOICES, categoryHref, type CategoryChoice } from './merchCategories.ts';
import './CategorySwitcher.css';

/**
 * The product page's categories as links to the same page in another category, the one shown
 * marked as the current page. Plain links: Tab reaches each, Enter follows it, and each has an
 * address of its own to share or open in a new tab.
 */
export function CategorySwitcher({ current }: { current: CategoryChoice | null }) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  return (
    <nav className="category-switcher" aria-label="Product categories">
      <ul className="category-switcher__list">
        {CATEGORY_CHOICES.map((c) => (
          <li key={c.value}>
            <Link
              className="category-switcher__link"
              to={categoryHref(pathname, params, c.value)}
              aria-current={c.value === current ? 'page' : undefined}
              preventScrollReset
            >
              {c.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
