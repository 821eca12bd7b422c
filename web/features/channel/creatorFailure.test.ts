import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/ApiError.ts';
import { channelFailure, profileFailure } from './creatorFailure.ts';

describe('channelFailure', () => {
  it('says Failed to load channel for every failure, with a retry unless the channel is missing', () => {
    expect(channelFailure(new ApiError(404, 'NOT_FOUND', 'No such channel.'))).toEqual({ message: 'Failed to load channel', retry: false });
    expect(channelFailure(new ApiError(500, 'INTERNAL', 'Oops.'))).toEqual({ message: 'Failed to load channel', retry: true });
    expect(channelFailure(new Error('x'))).toEqual({ message: 'Failed to load channel', retry: true });
  });
});

describe('profileFailure', () => {
  it('says User not found for a missing or malformed name', () => {
    expect(profileFailure(new ApiError(404, 'NOT_FOUND', 'User not found'))).toEqual({ message: 'User not found', retry: false });
    expect(profileFailure(new ApiError(400, 'VALIDATION_FAILED', 'bad'))).toEqual({ message: 'User not found', retry: false });
  });

  it("shows the server's message for other failures", () => {
    expect(profileFailure(new ApiError(503, 'SERVICE_UNAVAILABLE', 'Try later.'))).toEqual({ message: 'Try later.', retry: true });
  });
});
