import { describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import { ApiError } from '../../lib/ApiError.ts';
import { uploadErrorText, uploadForm } from './useUploadFlow.ts';

describe('uploadErrorText', () => {
  it('reads a lost session as the authentication error, whichever step', () => {
    expect(uploadErrorText(new ApiError(401, 'UNAUTHENTICATED', 'Please sign in.'), 'ensureUser')).toBe(UPLOAD_MESSAGES.authError);
    expect(uploadErrorText(new ApiError(401, 'SESSION_EXPIRED', 'x'), 'upload')).toBe(UPLOAD_MESSAGES.authError);
  });

  it('names the user check when it fails', () => {
    expect(uploadErrorText(new ApiError(500, 'INTERNAL', 'boom'), 'ensureUser')).toBe(UPLOAD_MESSAGES.ensureUserFailed);
    expect(uploadErrorText(new Error('boom'), 'ensureUser')).toBe(UPLOAD_MESSAGES.ensureUserFailed);
  });

  it("shows the server's message for a failed upload", () => {
    const reason = UPLOAD_MESSAGES.videoFailed('the file is not a video');
    expect(uploadErrorText(new ApiError(422, 'VALIDATION_FAILED', reason, reason), 'upload')).toBe(reason);
    expect(uploadErrorText(new ApiError(500, 'INTERNAL', UPLOAD_MESSAGES.databaseError('x')), 'upload')).toBe('Database error: x');
    expect(uploadErrorText(new ApiError(0, 'NETWORK_ERROR', 'Network error.'), 'upload')).toBe('Network error.');
    expect(uploadErrorText(new TypeError('odd'), 'upload')).toBe('Video upload failed: Unknown error');
  });
});

describe('uploadForm', () => {
  it('sends title, description and category, then the video and the thumbnail', () => {
    const video = new File(['v'], 'clip.mp4', { type: 'video/mp4' });
    const thumbnail = new File(['t'], 'thumb.jpg', { type: 'image/jpeg' });
    const form = uploadForm({ title: ' My clip ', description: 'About it\n', category: 'music', video, thumbnail });
    expect([...form.keys()]).toEqual(['title', 'description', 'category', 'video', 'thumbnail']);
    expect(form.get('title')).toBe('My clip');
    expect(form.get('description')).toBe('About it');
    expect((form.get('video') as File).name).toBe('clip.mp4');
  });
});
