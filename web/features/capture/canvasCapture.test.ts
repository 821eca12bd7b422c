import { describe, expect, it } from 'vitest';
import { PREVIEW_BOX, previewBoxFor, previewSize } from './canvasCapture.ts';

describe('the slot preview size', () => {
  it('fits the frame in the preview box, keeping its aspect ratio', () => {
    expect(previewSize(1920, 1080)).toEqual(PREVIEW_BOX);
    expect(previewSize(1280, 720)).toEqual({ width: 384, height: 216 });
    // A portrait phone clip: limited by the height.
    expect(previewSize(1080, 1920)).toEqual({ width: 122, height: 216 });
    expect(previewSize(4000, 100)).toEqual({ width: 384, height: 10 });
  });

  it('never scales a small frame up, and never reaches zero', () => {
    expect(previewSize(320, 180)).toEqual({ width: 320, height: 180 });
    expect(previewSize(10_000, 1)).toEqual({ width: 384, height: 1 });
  });
});

describe('the preview box of a slot', () => {
  it('is the device pixels the slot shows, 16:9', () => {
    // A desktop slot (six across the page) on a plain and on a high-density screen.
    expect(previewBoxFor(175, 1)).toEqual({ width: 175, height: 99 });
    expect(previewBoxFor(175, 2)).toEqual({ width: 350, height: 197 });
    // A phone's slot (three across) at three device pixels a CSS pixel; fractional sizes round up.
    expect(previewBoxFor(104.5, 3)).toEqual({ width: 314, height: 177 });
    expect(previewSize(1920, 1080, previewBoxFor(175, 1))).toEqual({ width: 175, height: 98 });
  });

  it('stays within a bound, and falls back to the default for a slot not laid out', () => {
    expect(previewBoxFor(400, 3)).toEqual({ width: 768, height: 432 });
    expect(previewBoxFor(0, 2)).toEqual(PREVIEW_BOX);
    expect(previewBoxFor(175, 0)).toEqual(PREVIEW_BOX);
    expect(previewBoxFor(Number.NaN, 1)).toEqual(PREVIEW_BOX);
  });
});
