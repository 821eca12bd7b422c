import { useEffect, useRef, useState } from 'react';
import type { VideoCategorySlug } from '../../../shared/categories.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { ensureUserRoute, UPLOAD_MESSAGES, UPLOAD_STAGES, uploadVideoRoute } from '../../../shared/schemas/studio.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { request } from '../../lib/api.ts';
import { isAbortError, isApiError } from '../../lib/ApiError.ts';
import { uploadWithProgress } from '../../lib/uploadWithProgress.ts';
import { progressFromBytes, type UploadStep } from './uploadProgress.ts';

export interface UploadFields {
  title: string;
  description: string;
  category: VideoCategorySlug;
  video: File;
  thumbnail: File;
}

export type UploadFlow =
  | { status: 'idle' }
  | { status: 'uploading'; step: UploadStep }
  | { status: 'failed'; reason: string }
  | { status: 'done'; video: VideoCard };

/**
 * The reason shown under "❌ Upload failed". A lost session reads as the spec's
 * authentication error; the user check has its own message; otherwise the server's words
 * ('Video upload failed: ...', 'Thumbnail upload failed', 'Database error: ...').
 */
export function uploadErrorText(error: unknown, during: 'ensureUser' | 'upload'): string {
  if (isApiError(error)) {
    if (error.status === 401 || error.code === ERROR_CODES.UNAUTHENTICATED || error.code === ERROR_CODES.SESSION_EXPIRED) {
      return UPLOAD_MESSAGES.authError;
    }
    if (error.status === 0) return error.message;
    if (during === 'ensureUser') return UPLOAD_MESSAGES.ensureUserFailed;
    return error.message;
  }
  return during === 'ensureUser' ? UPLOAD_MESSAGES.ensureUserFailed : UPLOAD_MESSAGES.videoFailed('Unknown error');
}

/** The multipart body, parts in the order the server reads them: text fields first, then the files. */
export function uploadForm(fields: UploadFields): FormData {
  const form = new FormData();
  form.append('title', fields.title.trim());
  form.append('description', fields.description.trim());
  form.append('category', fields.category);
  form.append('video', fields.video, fields.video.name);
  form.append('thumbnail', fields.thumbnail, fields.thumbnail.name);
  return form;
}

/**
 * The spec's upload flow: ensure the user exists (10), one multipart request whose bytes
 * move the bar to 80, then 100 when the server has stored the video. Leaving the page
 * aborts the request in flight.
 */
export function useUploadFlow() {
  const [flow, setFlow] = useState<UploadFlow>({ status: 'idle' });
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => {
    const requests = inFlight;
    return () => requests.current?.abort();
  }, []);

  const start = async (fields: UploadFields) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    const { signal } = controller;
    const fail = (error: unknown, during: 'ensureUser' | 'upload') => {
      if (!isAbortError(error)) setFlow({ status: 'failed', reason: uploadErrorText(error, during) });
    };

    setFlow({ status: 'uploading', step: { percent: 0, stage: 'ensureUser' } });
    try {
      await request(ensureUserRoute, { body: {}, signal });
    } catch (error) {
      fail(error, 'ensureUser');
      return;
    }

    setFlow({ status: 'uploading', step: { percent: UPLOAD_STAGES.ensureUser, stage: 'video' } });
    try {
      const reply = await uploadWithProgress(uploadVideoRoute, {
        form: uploadForm(fields),
        signal,
        onProgress: ({ loaded, total }) => {
          const step = progressFromBytes(loaded, total, fields.thumbnail.size);
          setFlow((current) => (current.status === 'uploading' ? { status: 'uploading', step } : current));
        },
      });
      setFlow({ status: 'done', video: reply.video });
    } catch (error) {
      fail(error, 'upload');
    }
  };

  return { flow, start };
}
