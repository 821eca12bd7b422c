import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageDecodes } from './decode-slots.ts';
import { ImageRejected, ImageTooLarge, MAX_FRAME_PIXELS, reencodeImage } from './images.ts';

/** A solid colour compresses to a few hundred kilobytes however many pixels it has. */
const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#2a6' } }).png().toBuffer();

describe('reencodeImage', () => {
  it('refuses an image larger than a 3840 x 2160 frame from its header, before it waits for or takes a decode slot', async () => {
    const huge = await solid(7000, 7000); // 49 megapixels
    const blockers = Array.from({ length: imageDecodes.size }, () => {
      let release!: () => void;
      const held = imageDecodes.run(() => new Promise<void>((resolve) => (release = resolve)));
      return { held, release: () => release() };
    });
    try {
      await new Promise((r) => setImmediate(r));
      expect(imageDecodes.running).toBe(imageDecodes.size);
      const refused = await reencodeImage(huge).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ImageTooLarge);
      expect((refused as ImageTooLarge).message).toBe('Images can be at most 3840 x 2160 pixels (8,294,400 pixels); this one is 7000 x 7000.');
      expect(imageDecodes.queued).toBe(0);

      // An image of an accepted size does wait for a slot.
      let finished = false;
      const small = reencodeImage(await solid(64, 48)).then((r) => ((finished = true), r));
      await new Promise((r) => setTimeout(r, 100));
      expect(finished).toBe(false);
      expect(imageDecodes.queued).toBe(1);
      for (const b of blockers) b.release();
      expect((await small).width).toBe(64);
    } finally {
      for (const b of blockers) b.release();
      await Promise.all(blockers.map((b) => b.held));
    }
  });

  it('accepts the largest frame either way round and refuses one pixel more', async () => {
    expect(MAX_FRAME_PIXELS).toBe(8_294_400);
    for (const [w, h] of [
      [3840, 2160],
      [2160, 3840],
    ] as const) {
      const out = await reencodeImage(await solid(w, h), { maxSide: 4096 });
      expect({ width: out.width, height: out.height }).toEqual({ width: w, height: h });
    }
    await expect(reencodeImage(await solid(3841, 2160))).rejects.toBeInstanceOf(ImageTooLarge);
  });

  it('still refuses bytes that are not an image, or whose header does not read', async () => {
    await expect(reencodeImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).rejects.toBeInstanceOf(ImageRejected);
    const png = await solid(32, 32);
    await expect(reencodeImage(png.subarray(0, 20))).rejects.toBeInstanceOf(ImageRejected);
  });
});
