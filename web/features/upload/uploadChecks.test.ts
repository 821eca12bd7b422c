import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS, UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import {
  checkDraft,
  checkThumbnailFile,
  checkVideoFile,
  formatBytes,
  offersUpgrade,
  sizeLabel,
  upgradeOfferText,
  videoTooLargeMessage,
  type UploadDraft,
} from './uploadChecks.ts';

const MB = 1024 * 1024;
const video = { type: 'video/mp4', size: 5 * MB };
const image = { type: 'image/jpeg', size: 200 * 1024 };

describe('checkVideoFile', () => {
  it('accepts any video/* under the free limit', () => {
    expect(checkVideoFile(video, 'free')).toBeNull();
    expect(checkVideoFile({ type: 'video/webm', size: UPLOAD_LIMITS.free.videoBytes - 1 }, 'free')).toBeNull();
  });

  it('refuses what is not a video, before looking at the size', () => {
    expect(checkVideoFile({ type: 'image/png', size: 10 }, 'free')).toBe('❌ Please select a valid video file');
    expect(checkVideoFile({ type: '', size: 10 }, 'free')).toBe(`❌ ${UPLOAD_MESSAGES.notAVideo}`);
    expect(checkVideoFile({ type: 'text/plain', size: UPLOAD_LIMITS.free.videoBytes * 2 }, 'free')).toBe(`❌ ${UPLOAD_MESSAGES.notAVideo}`);
  });

  it('refuses 100 MB and more on the free tier with the spec message', () => {
    expect(checkVideoFile({ type: 'video/mp4', size: 100 * MB }, 'free')).toBe('❌ Video file size must be less than 100MB');
  });

  it('lets the pro tier go up to its own limit, with the same sentence naming it', () => {
    expect(checkVideoFile({ type: 'video/mp4', size: 500 * MB }, 'pro')).toBeNull();
    expect(checkVideoFile({ type: 'video/mp4', size: UPLOAD_LIMITS.pro.videoBytes }, 'pro')).toBe('❌ Video file size must be less than 2GB');
  });
});

describe('videoTooLargeMessage and sizeLabel', () => {
  it('is the spec text for the free tier and built the same way for pro', () => {
    expect(videoTooLargeMessage('free')).toBe(UPLOAD_MESSAGES.videoTooLarge);
    expect(videoTooLargeMessage('pro')).toBe(UPLOAD_MESSAGES.videoTooLarge.replace('100MB', '2GB'));
    expect(sizeLabel(UPLOAD_LIMITS.thumbnailBytes)).toBe('10MB');
    expect(sizeLabel(UPLOAD_LIMITS.profileImageBytes)).toBe('5MB');
  });
});

describe('formatBytes', () => {
  it('picks a unit a person reads at a glance', () => {
    expect(formatBytes(12)).toBe('1 KB');
    expect(formatBytes(830 * 1024)).toBe('830 KB');
    expect(formatBytes(1.8 * MB)).toBe('1.8 MB');
    expect(formatBytes(1.25 * 1024 * MB)).toBe('1.3 GB');
  });
});

describe('checkThumbnailFile', () => {
  it('accepts an image under 10 MB', () => {
    expect(checkThumbnailFile(image)).toBeNull();
    expect(checkThumbnailFile({ type: 'image/webp', size: UPLOAD_LIMITS.thumbnailBytes - 1 })).toBeNull();
  });

  it('refuses a non-image and an image of 10 MB or more', () => {
    expect(checkThumbnailFile({ type: 'video/mp4', size: 10 })).toBe('❌ Please select a valid image file');
    expect(checkThumbnailFile({ type: 'image/png', size: 10 * MB })).toBe('❌ Image file size must be less than 10MB');
  });
});

describe('checkDraft', () => {
  const complete: UploadDraft = { title: 'A title', description: 'Words', video, thumbnail: image, signedIn: true };

  it('passes a complete draft', () => {
    expect(checkDraft(complete)).toBeNull();
  });

  it('checks title, description, video, thumbnail, then the user, in that order', () => {
    const empty: UploadDraft = { title: '', description: '', video: null, thumbnail: null, signedIn: false };
    const steps: UploadDraft[] = [
      empty,
      { ...empty, title: 'T' },
      { ...empty, title: 'T', description: 'D' },
      { ...empty, title: 'T', description: 'D', video },
      { ...empty, title: 'T', description: 'D', video, thumbnail: image },
    ];
    expect(steps.map((d) => checkDraft(d))).toEqual([
      { field: 'title', message: '❌ Please enter a video title' },
      { field: 'description', message: '❌ Please enter a video description' },
      { field: 'video', message: '❌ Please select a video file' },
      { field: 'thumbnail', message: '❌ Please select a thumbnail image' },
      { field: 'account', message: '❌ Please log in to upload videos' },
    ]);
  });

  it('treats blank text as missing', () => {
    expect(checkDraft({ ...complete, title: '   ' })?.field).toBe('title');
    expect(checkDraft({ ...complete, description: '\n\t ' })?.field).toBe('description');
  });
});

describe('the tier refusal and its way out', () => {
  it("offers Pro's limits, as the server applies them", () => {
    expect(upgradeOfferText()).toBe('Upgrade to Pro for videos up to 2GB and 60 minutes');
  });

  it('offers the upgrade to a Free creator whose video is over the Free limit and under Pro\'s', () => {
    const big = { type: 'video/mp4', size: 150 * MB };
    expect(checkVideoFile(big, 'free')).toBe('❌ Video file size must be less than 100MB');
    expect(offersUpgrade(big, 'free')).toBe(true);
    expect(offersUpgrade({ type: 'video/mp4', size: UPLOAD_LIMITS.free.videoBytes }, 'free')).toBe(true);
  });

  it('offers nothing when the upgrade would not help', () => {
    expect(offersUpgrade(video, 'free')).toBe(false);
    expect(offersUpgrade({ type: 'image/png', size: 150 * MB }, 'free')).toBe(false);
    expect(offersUpgrade({ type: 'video/mp4', size: UPLOAD_LIMITS.pro.videoBytes }, 'free')).toBe(false);
    expect(offersUpgrade({ type: 'video/mp4', size: UPLOAD_LIMITS.pro.videoBytes }, 'pro')).toBe(false);
    expect(checkVideoFile({ type: 'video/mp4', size: 150 * MB }, 'pro')).toBeNull();
  });
});
