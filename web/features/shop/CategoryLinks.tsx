import { Link } from 'react-router';
import { CATEGORY_CHOICES } from './merchCategories.ts';
import './CategoryLinks.css';

/** The shop's categories as boxes linking to the categories page, where choosing one makes the product. */
export function CategoryLinks() {
  return (
    <nav className="category-links" aria-label="Merchandise categories">
      {CATEGORY_CHOICES.map((c) => (
        <Link key={c.value} className="category-links__box" to={`/merchandise?category=${c.value}`}>
          {c.label}
        </Link>
      ))}
    </nav>
  );
}
