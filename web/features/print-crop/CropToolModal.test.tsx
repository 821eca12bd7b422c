import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CropToolModal } from './CropToolModal.tsx';

// The dialog renders into document.body, which a server render has not: its content is what is checked here.
vi.mock('../../components/Modal.tsx', () => ({
  Modal: ({ title, children }: { title: string; children: ReactNode }) => (
    <section aria-label={title}>
      {title}
      {children}
    </section>
  ),
}));

const image = { blob: new Blob(), url: 'blob:frame', width: 1920, height: 1080 };

describe('CropToolModal', () => {
  it("has the spec's buttons, a size picker of the spec's sizes and the zoom slider", () => {
    const html = renderToStaticMarkup(<CropToolModal image={image} onCancel={() => undefined} onDone={() => undefined} />);
    for (const label of ['Cancel', 'Apply Crop', 'Apply Feather &amp; Generate Print Quality']) expect(html).toContain(`>${label}</button>`);
    for (const size of ['4x6 in', '5x7 in', '8x10 in', '11x14 in', 'Mug 4x4 in', 'T-Shirt 12x16 in', 'Phone Case 2x4 in']) expect(html).toContain(`>${size}</option>`);
    expect(html).toContain('type="range"');
    expect(html).toContain('Simple Print Crop Tool');
    // Landscape for a wide frame; the T-shirt (the default) prints one way up.
    expect(html).toMatch(/<fieldset class="crop-tool__orientation" disabled=""/);
  });
});
