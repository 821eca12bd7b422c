import { describe, expect, it, vi } from 'vitest';
import { encodeOnMainThread, STORED_FRAME_TYPE } from './frameEncoder.ts';

describe('encodeOnMainThread', () => {
  it('keeps the full frame as a lossless PNG, without a JPEG quality', async () => {
    expect(STORED_FRAME_TYPE).toBe('image/png');
    const toBlob = vi.fn((done: (b: Blob | null) => void, type?: string) => done(new Blob([], { type })));
    expect((await encodeOnMainThread({ toBlob })).type).toBe('image/png');
    expect(toBlob.mock.calls[0]).toHaveLength(2);
  });

  it('rejects when the canvas encodes nothing, and passes a tainted canvas on', async () => {
    await expect(encodeOnMainThread({ toBlob: (done) => done(null) })).rejects.toThrow('could not encode');
    const tainted = Object.assign(new Error('tainted'), { name: 'SecurityError' });
    await expect(encodeOnMainThread({ toBlob: () => { throw tainted; } })).rejects.toBe(tainted);
  });
});
