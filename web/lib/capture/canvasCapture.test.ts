import { describe, expect, it } from 'vitest';
import { PREVIEW_BOX, previewSize } from './canvasCapture.ts';

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
