import { useEffect, useState } from 'react';
import type { ReplyOf } from '../../../shared/schemas/route.ts';
import { videoRoute } from '../../../shared/schemas/videos.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { request } from '../../lib/api.ts';
import { isAbortError, isApiError } from '../../lib/ApiError.ts';

export type VideoDetail = ReplyOf<typeof videoRoute>['video'];

export type VideoState =
  | { status: 'loading' }
  | { status: 'ready'; video: VideoDetail }
  | { status: 'not-found' }
  | { status: 'error'; message: string };

/** What a failed fetch means to the page: a missing (or malformed) id is "not found", the rest is shown as the server said. */
export function videoFailure(error: unknown): VideoState {
  if (isApiError(error) && (error.code === ERROR_CODES.NOT_FOUND || error.code === ERROR_CODES.VALIDATION_FAILED)) {
    return { status: 'not-found' };
  }
  return { status: 'error', message: isApiError(error) ? error.message : 'Failed to load the video.' };
}

/** One video's details; a new id aborts the previous request. */
export function useVideo(videoId: string, attempt: number): VideoState {
  const key = `${videoId}#${attempt}`;
  const [state, setState] = useState<{ key: string; value: VideoState }>({ key, value: { status: 'loading' } });

  useEffect(() => {
    const controller = new AbortController();
    request(videoRoute, { params: { id: videoId }, signal: controller.signal }).then(
      (reply) => setState({ key, value: { status: 'ready', video: reply.video } }),
      (error: unknown) => {
        if (!isAbortError(error)) setState({ key, value: videoFailure(error) });
      },
    );
    return () => controller.abort();
  }, [videoId, key]);

  return state.key === key ? state.value : { status: 'loading' };
}
