import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '../../../shared/schemas/studio.ts';
import { checkProfileImage, statusLabel } from './studioChecks.ts';

describe('checkProfileImage', () => {
  it('accepts an image under 5 MB', () => {
    expect(checkProfileImage({ type: 'image/png', size: UPLOAD_LIMITS.profileImageBytes - 1 })).toBeNull();
  });

  it('refuses a non-image first, then 5 MB or more, with the spec messages', () => {
    expect(checkProfileImage({ type: 'video/mp4', size: 10 })).toBe('Please select a valid image file.');
    expect(checkProfileImage({ type: '', size: UPLOAD_LIMITS.profileImageBytes * 3 })).toBe('Please select a valid image file.');
    expect(checkProfileImage({ type: 'image/jpeg', size: UPLOAD_LIMITS.profileImageBytes })).toBe('File size must be less than 5MB.');
  });
});

describe('statusLabel', () => {
  it('names the known statuses and spells out the others', () => {
    expect(statusLabel('approved')).toBe('Approved');
    expect(statusLabel('verified_via_supabase_auth')).toBe('Published');
    expect(statusLabel('on_hold')).toBe('on hold');
  });
});
