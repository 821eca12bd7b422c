import { describe, expect, it } from 'vitest';
import { channelPath, profilePath, videoPath } from './paths.ts';

describe('paths', () => {
  it('builds the video page address, category 0 included', () => {
    expect(videoPath(3, 'a1b2')).toBe('/video/3/a1b2');
    expect(videoPath(0, 'a1b2')).toBe('/video/0/a1b2');
  });

  it('encodes names so they stay one path segment', () => {
    expect(profilePath('pixelpete')).toBe('/profile/pixelpete');
    expect(channelPath('a/b c')).toBe('/channel/a%2Fb%20c');
  });
});
