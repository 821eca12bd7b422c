import { describe, expect, it } from 'vitest';
import { UPLOAD_STAGES } from '../../../shared/schemas/studio.ts';
import { progressFromBytes } from './uploadProgress.ts';

// A 1,000,000-byte body whose last 100,000 bytes are the thumbnail part.
const total = 1_000_000;
const thumb = 100_000;

describe('progressFromBytes', () => {
  it('starts where the user check left the bar', () => {
    expect(progressFromBytes(0, total, thumb)).toEqual({ percent: UPLOAD_STAGES.ensureUser, stage: 'video' });
  });

  it("moves through 10..50 with the video's bytes", () => {
    expect(progressFromBytes(450_000, total, thumb)).toEqual({ percent: 30, stage: 'video' });
    expect(progressFromBytes(899_999, total, thumb).percent).toBe(49);
  });

  it("reaches 50 when the video's bytes are sent, then 50..80 with the thumbnail's", () => {
    expect(progressFromBytes(900_000, total, thumb)).toEqual({ percent: UPLOAD_STAGES.video, stage: 'thumbnail' });
    expect(progressFromBytes(950_000, total, thumb)).toEqual({ percent: 65, stage: 'thumbnail' });
  });

  it('holds at 80 once every byte is sent, while the server stores the video', () => {
    expect(progressFromBytes(total, total, thumb)).toEqual({ percent: UPLOAD_STAGES.thumbnail, stage: 'metadata' });
  });

  it('never goes backwards or past 80 while bytes are sent', () => {
    let last = 0;
    for (let loaded = 0; loaded <= total; loaded += 12_345) {
      const { percent } = progressFromBytes(loaded, total, thumb);
      expect(percent).toBeGreaterThanOrEqual(last);
      expect(percent).toBeLessThanOrEqual(UPLOAD_STAGES.thumbnail);
      last = percent;
    }
  });

  it('copes with an unknown total and a thumbnail larger than the body', () => {
    expect(progressFromBytes(10, 0, thumb)).toEqual({ percent: UPLOAD_STAGES.ensureUser, stage: 'video' });
    expect(progressFromBytes(5, 10, 50).stage).toBe('thumbnail');
  });
});
