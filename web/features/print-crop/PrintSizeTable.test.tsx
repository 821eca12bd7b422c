import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PrintSizeTable } from './PrintSizeTable.tsx';
import { sizeRows } from './printSizes.ts';

describe('PrintSizeTable', () => {
  it("shows each size's status and DPI badge, the chosen one marked", () => {
    const html = renderToStaticMarkup(<PrintSizeTable rows={sizeRows({ width: 1800, height: 1200 }, 'landscape', '8x10')} chosenId="8x10" />);
    expect(html.match(/<tr/g)).toHaveLength(8);
    expect(html).toContain('aria-label="4x6 in: Print ready · 300 DPI"');
    expect(html).toContain('aria-label="8x10 in: Acceptable · 180 DPI"');
    expect(html).toContain('aria-label="T-Shirt 12x16 in: Low resolution · 75 DPI"');
    expect(html).toMatch(/<tr aria-current="true"[^>]*><th scope="row">8x10<\/th>/);
    expect(html).toContain('OK for Print');
    expect(html).toContain('Too Small for Print');
  });
});
