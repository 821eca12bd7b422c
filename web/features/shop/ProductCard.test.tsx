/** A product card's print quality, rendered to markup (no DOM): the three-level badge of the DPI, and a hint only when low. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { dpiLevel } from '../../../shared/print.ts';
import type { Size } from '../../../shared/print.ts';
import { ProductCard } from './ProductCard.tsx';
import { qualityInSize } from './productOptions.ts';
import { parseCatalogueReply } from './testCatalogue.ts';

const card = (sku: string, imageSize: Size | null) =>
  renderToStaticMarkup(<ProductCard product={parseCatalogueReply(sku)} merch={null} screenshot={null} image={null} imageSize={imageSize} />);

/** The badge's level and DPI as the markup shows them. */
function badgeOf(html: string): { level: string; dpi: number } | null {
  const m = /data-level="(\w+)"[^>]*>.*?(\d+) DPI<\/span>/.exec(html);
  return m ? { level: m[1]!, dpi: Number(m[2]) } : null;
}

describe('the print quality on a product card', () => {
  it('is the badge of the effective DPI for the first size, at its level', () => {
    for (const [sku, size] of [
      ['unisex-tshirt', { width: 1280, height: 720 }],
      ['unisex-tshirt', { width: 3840, height: 2160 }],
      ['white-glossy-mug', { width: 1280, height: 720 }],
      ['kiss-cut-stickers', { width: 1920, height: 1080 }],
    ] as const) {
      const product = parseCatalogueReply(sku);
      const expected = qualityInSize(size, product, product.sizes.includes('M') ? 'M' : (product.sizes[0] ?? null)).dpi;
      const badge = badgeOf(card(sku, size));
      expect(badge, sku).toEqual({ level: dpiLevel(expected), dpi: expected });
    }
  });

  it('at a low DPI says what to do in plain words, with no red banner', () => {
    const html = card('unisex-tshirt', { width: 1280, height: 720 });
    expect(badgeOf(html)?.level).toBe('low');
    expect(html).toContain('<p class="product-card__hint">For a sharper print, choose a smaller product.</p>');
    expect(html).not.toContain('Print-on-demand providers hold orders');
    expect(html).not.toContain('--warning');
  });

  it('has no hint at an acceptable or ready DPI, and no badge before there is a screenshot', () => {
    expect(card('unisex-tshirt', { width: 3840, height: 2160 })).not.toContain('product-card__hint');
    const browsing = card('unisex-tshirt', null);
    expect(browsing).not.toContain('dpi-badge');
    expect(browsing).toContain('<h3');
  });

  it('names its product with the heading level it is given', () => {
    const html = renderToStaticMarkup(
      <ProductCard product={parseCatalogueReply('white-glossy-mug')} merch={null} screenshot={null} image={null} imageSize={null} headingLevel={4} />,
    );
    expect(html).toMatch(/<h4 class="product-card__name" id="[^"]+">White Glossy Mug<\/h4>/);
  });
});
