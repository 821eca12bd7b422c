import { describe, expect, it } from 'vitest';
import { UPLOAD_STAGES } from '../../../shared/schemas/studio.ts';
import { bytesProgressText, progressFromBytes, progressFromResumableBytes } from './uploadProgress.ts';

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

describe('progressFromResumableBytes', () => {
  const MB = 1024 * 1024;
  const video = 150 * MB;
  const thumbnail = 1 * MB;

  it('starts at 10 and moves to 80 in proportion to the bytes of both files', () => {
    expect(progressFromResumableBytes(0, video, thumbnail)).toEqual({ percent: UPLOAD_STAGES.ensureUser, stage: 'video' });
    expect(progressFromResumableBytes(45 * MB + 0.3 * MB, video, thumbnail)).toEqual({ percent: 31, stage: 'video' });
    expect(progressFromResumableBytes(video, video, thumbnail)).toEqual({ percent: 79, stage: 'thumbnail' });
    expect(progressFromResumableBytes(video + thumbnail, video, thumbnail)).toEqual({ percent: UPLOAD_STAGES.thumbnail, stage: 'metadata' });
  });

  it('never leaves 10..80 and never goes backwards as bytes grow', () => {
    let last = 0;
    for (let sent = -MB; sent <= video + 2 * thumbnail; sent += 3 * MB + 17) {
      const { percent } = progressFromResumableBytes(sent, video, thumbnail);
      expect(percent).toBeGreaterThanOrEqual(Math.max(last, UPLOAD_STAGES.ensureUser));
      expect(percent).toBeLessThanOrEqual(UPLOAD_STAGES.thumbnail);
      last = percent;
    }
  });

  it('copes with empty files', () => {
    expect(progressFromResumableBytes(0, 0, 0)).toEqual({ percent: UPLOAD_STAGES.ensureUser, stage: 'video' });
  });
});

describe('bytesProgressText', () => {
  const MB = 1024 * 1024;
  it('reads the bytes sent and the total in one unit', () => {
    expect(bytesProgressText(45.25 * MB, 150.4 * MB)).toBe('Uploaded 45.3 MB of 150.4 MB');
    expect(bytesProgressText(0, 700 * 1024)).toBe('Uploaded 0.0 MB of 0.7 MB');
    expect(bytesProgressText(1024 * MB, 2000 * MB)).toBe('Uploaded 1.00 GB of 1.95 GB');
    expect(bytesProgressText(200 * MB, 100 * MB)).toBe('Uploaded 100.0 MB of 100.0 MB');
  });
});
