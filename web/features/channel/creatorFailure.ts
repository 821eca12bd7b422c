import { CHANNEL_MESSAGES } from '../../../shared/schemas/channels.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { isApiError } from '../../lib/ApiError.ts';

export interface CreatorFailure {
  message: string;
  retry: boolean;
}

/** What a failed channel read shows: the spec has one message for every failure; only a missing channel offers no retry. */
export function channelFailure(error: unknown): CreatorFailure {
  return { message: CHANNEL_MESSAGES.channelFailed, retry: !isMissing(error) };
}

/** A failed profile read: a missing (or malformed) name is "User not found"; the rest as the server said. */
export function profileFailure(error: unknown): CreatorFailure {
  if (isMissing(error)) return { message: CHANNEL_MESSAGES.userNotFound, retry: false };
  return { message: isApiError(error) ? error.message : 'Failed to load the profile.', retry: true };
}

function isMissing(error: unknown): boolean {
  return isApiError(error) && (error.code === ERROR_CODES.NOT_FOUND || error.code === ERROR_CODES.VALIDATION_FAILED || error.status === 404);
}
