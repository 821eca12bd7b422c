import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/ApiError.ts';
import { videoFailure } from './useVideo.ts';

describe('videoFailure', () => {
  it('treats a 404 and a malformed id as not found', () => {
    expect(videoFailure(new ApiError(404, 'NOT_FOUND', 'Video not found.'))).toEqual({ status: 'not-found' });
    expect(videoFailure(new ApiError(400, 'VALIDATION_FAILED', 'bad id'))).toEqual({ status: 'not-found' });
  });

  it("shows the server's message for other failures", () => {
    expect(videoFailure(new ApiError(503, 'SERVICE_UNAVAILABLE', 'Try later.'))).toEqual({ status: 'error', message: 'Try later.' });
    expect(videoFailure(new Error('boom'))).toEqual({ status: 'error', message: 'Failed to load the video.' });
  });
});
