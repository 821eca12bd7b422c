import { describe, expect, it } from 'vitest';
import { authPagePath, channelPath, profilePath, returnPathOf, videoPath } from './paths.ts';

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

describe('returnPathOf', () => {
  it('is the page and its query, without sign-in return parameters', () => {
    expect(returnPathOf({ pathname: '/video/2/abc', search: '?t=5' })).toBe('/video/2/abc?t=5');
    expect(returnPathOf({ pathname: '/privacy-policy', search: '?login=success&x=1&clear=true' })).toBe('/privacy-policy?x=1');
  });

  it("on a sign-in page is the address that page was opened for, if it stays on the site", () => {
    expect(returnPathOf({ pathname: '/login', search: '?returnTo=%2Fupload' })).toBe('/upload');
    expect(returnPathOf({ pathname: '/signup', search: '' })).toBe('/');
    expect(returnPathOf({ pathname: '/login', search: '?returnTo=%2F%2Fevil.example' })).toBe('/');
  });
});

describe('authPagePath', () => {
  it('carries the return address and the session-expired status', () => {
    expect(authPagePath('/login', '/privacy-policy', 'session_expired')).toBe(
      '/login?status=session_expired&returnTo=%2Fprivacy-policy',
    );
    expect(authPagePath('/signup', '/upload?x=1')).toBe('/signup?returnTo=%2Fupload%3Fx%3D1');
  });

  it('leaves out a return to the home page or to another site', () => {
    expect(authPagePath('/login', '/')).toBe('/login');
    expect(authPagePath('/login', 'https://evil.example/')).toBe('/login');
  });
});
