/** The product page's category links, rendered to markup (no DOM). */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CategorySwitcher } from './CategorySwitcher.tsx';
import { CATEGORY_CHOICES, type CategoryChoice } from './merchCategories.ts';

const render = (url: string, current: CategoryChoice | null) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={[url]}>
      <CategorySwitcher current={current} />
    </MemoryRouter>,
  );

const links = (html: string) => [...html.matchAll(/<a ([^>]*)>([^<]*)<\/a>/g)].map((m) => ({ attrs: m[1]!, label: m[2]! }));
const hrefOf = (attrs: string) => /href="([^"]*)"/.exec(attrs)![1]!.replaceAll('&amp;', '&');

describe('the category switcher', () => {
  it('links every category, all first, to the same page in that category, keeping its other parameters', () => {
    const html = render('/product/browse?category=mugs&authenticated=true&email=a%40b.c', 'mugs');
    expect(html).toContain('<nav class="category-switcher" aria-label="Product categories">');
    const found = links(html);
    expect(found.map((l) => l.label)).toEqual(CATEGORY_CHOICES.map((c) => c.label.replace("'", '&#x27;')));
    expect(hrefOf(found[1]!.attrs)).toBe('/product/browse?category=womens&authenticated=true&email=a%40b.c');
    expect(hrefOf(found[0]!.attrs)).toBe('/product/browse?category=all&authenticated=true&email=a%40b.c');
  });

  it('marks only the current category as the current page', () => {
    const id = '3f1c2a9e-1d2b-4c3d-8e9f-0a1b2c3d4e5f';
    const found = links(render(`/product/${id}`, 'hats'));
    const current = found.filter((l) => l.attrs.includes('aria-current="page"'));
    expect(current.map((l) => l.label)).toEqual(['Hats']);
    expect(hrefOf(current[0]!.attrs)).toBe(`/product/${id}?category=hats`);
    expect(links(render('/product/browse', null)).some((l) => l.attrs.includes('aria-current'))).toBe(false);
  });
});
