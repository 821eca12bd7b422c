/**
 * One upload from the submit to the stored video, outside React so tests drive it with
 * stand-ins: ensure the user exists (10), send the files (their bytes take the bar to 80),
 * and 100 once the server has stored the video. Videos above RESUMABLE_UPLOAD.thresholdBytes
 * go up in resumable chunks and are then finished with the thumbnail; smaller ones keep the
 * one multipart request.
 */
import type { VideoCategorySlug } from '../../../shared/categories.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { ensureUserRoute, finishResumableUploadRoute, UPLOAD_MESSAGES, UPLOAD_STAGES, uploadVideoRoute } from '../../../shared/schemas/studio.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { request } from '../../lib/api.ts';
import { isAbortError, isApiError } from '../../lib/ApiError.ts';
import { uploadWithProgress } from '../../lib/uploadWithProgress.ts';
import { sendResumable, usesResumableUpload, type ResumableUpload } from './resumableUpload.ts';
import { progressFromBytes, progressFromResumableBytes, type UploadStep } from './uploadProgress.ts';

export interface UploadFields {
  title: string;
  description: string;
  category: VideoCategorySlug;
  video: File;
  thumbnail: File;
}

/**
 * 'reconnecting': a request failed and is being retried, until the bytes are back past where
 * they were. 'resuming': an upload of this file left unfinished earlier is carried on.
 */
export type UploadNotice = 'reconnecting' | 'resuming';

export interface UploadingState {
  status: 'uploading';
  step: UploadStep;
  /** Bytes of the files sent so far and in all, once sending has begun. */
  bytes: { sent: number; total: number } | null;
  notice: UploadNotice | null;
}

export type UploadFlow =
  | { status: 'idle' }
  | UploadingState
  | { status: 'failed'; reason: string; httpStatus: number | null }
  | { status: 'cancelled' }
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

function appendText(form: FormData, fields: UploadFields) {
  form.append('title', fields.title.trim());
  form.append('description', fields.description.trim());
  form.append('category', fields.category);
}

/** The multipart body, parts in the order the server reads them: text fields first, then the files. */
export function uploadForm(fields: UploadFields): FormData {
  const form = new FormData();
  appendText(form, fields);
  form.append('video', fields.video, fields.video.name);
  form.append('thumbnail', fields.thumbnail, fields.thumbnail.name);
  return form;
}

/** The finish request's body: the same text fields, the tus upload's id, then the thumbnail. */
export function finishForm(fields: UploadFields, uploadId: string): FormData {
  const form = new FormData();
  appendText(form, fields);
  form.append('upload_id', uploadId);
  form.append('thumbnail', fields.thumbnail, fields.thumbnail.name);
  return form;
}

export interface UploadDeps {
  ensureUser: (signal: AbortSignal) => Promise<unknown>;
  uploadWithProgress: typeof uploadWithProgress;
  sendResumable: typeof sendResumable;
}

export const defaultUploadDeps: UploadDeps = {
  ensureUser: (signal) => request(ensureUserRoute, { body: {}, signal }),
  uploadWithProgress,
  sendResumable,
};

export interface UploadRunOptions {
  /** The creator's id: part of the resumable upload's fingerprint. */
  owner: string;
  onChange: (flow: UploadFlow) => void;
  /** This video's bytes are already all on the server under this id (an earlier finish failed): only finish. */
  uploadedId?: string | null;
  /** Every byte of the video reached the server under this id. */
  onVideoUploaded?: (uploadId: string) => void;
  deps?: UploadDeps;
}

export interface UploadRun {
  /** Settles when the run has reported its outcome (done or failed), or was stopped. */
  finished: Promise<void>;
  /**
   * Stops the run and reports nothing more. `discard` (the Cancel button) also deletes a
   * resumable upload's partial copy; without it (leaving the page) the copy stays for resuming.
   */
  stop: (discard: boolean) => void;
}

export function runUpload(fields: UploadFields, options: UploadRunOptions): UploadRun {
  const deps = options.deps ?? defaultUploadDeps;
  const controller = new AbortController();
  const { signal } = controller;
  let tus: ResumableUpload | null = null;
  let stopped = false;
  let state: UploadingState = { status: 'uploading', step: { percent: 0, stage: 'ensureUser' }, bytes: null, notice: null };
  const report = (flow: UploadFlow) => {
    if (!stopped) options.onChange(flow);
  };

  /** The bar and the byte count never move back: bytes lost with a dropped request are sent again first. */
  const progress = (step: UploadStep, sent: number, total: number) => {
    const highest = state.bytes?.sent ?? 0;
    const caughtUp = sent > highest;
    state = {
      ...state,
      step: step.percent >= state.step.percent ? step : state.step,
      bytes: { sent: Math.max(sent, highest), total },
      notice: state.notice === 'reconnecting' ? (caughtUp ? null : 'reconnecting') : state.notice,
    };
    report(state);
  };
  const notify = (notice: UploadNotice) => {
    state = { ...state, notice };
    report(state);
  };

  const sendSmall = async () => {
    const reply = await deps.uploadWithProgress(uploadVideoRoute, {
      form: uploadForm(fields),
      signal,
      onProgress: ({ loaded, total }) => progress(progressFromBytes(loaded, total, fields.thumbnail.size), loaded, total),
    });
    return reply.video;
  };

  const sendLarge = async () => {
    const videoBytes = fields.video.size;
    const thumbnailBytes = fields.thumbnail.size;
    const total = videoBytes + thumbnailBytes;
    let uploadId = options.uploadedId ?? null;
    if (!uploadId) {
      tus = deps.sendResumable(fields.video, options.owner, {
        onProgress: (sent) => progress(progressFromResumableBytes(sent, videoBytes, thumbnailBytes), sent, total),
        onRetry: () => notify('reconnecting'),
        onResume: () => notify('resuming'),
      });
      uploadId = (await tus.done).uploadId;
      options.onVideoUploaded?.(uploadId);
    }
    const reply = await deps.uploadWithProgress(finishResumableUploadRoute, {
      form: finishForm(fields, uploadId),
      signal,
      onProgress: ({ loaded, total: bodyBytes }) => {
        const sent = videoBytes + (bodyBytes > 0 ? Math.floor((thumbnailBytes * Math.min(loaded, bodyBytes)) / bodyBytes) : 0);
        progress(progressFromResumableBytes(sent, videoBytes, thumbnailBytes), sent, total);
      },
    });
    return reply.video;
  };

  const fail = (error: unknown, during: 'ensureUser' | 'upload') => {
    if (isAbortError(error) || stopped) return;
    report({ status: 'failed', reason: uploadErrorText(error, during), httpStatus: isApiError(error) ? error.status : null });
  };

  const run = async () => {
    report(state);
    try {
      await deps.ensureUser(signal);
    } catch (error) {
      fail(error, 'ensureUser');
      return;
    }
    if (stopped) return;
    state = { ...state, step: { percent: UPLOAD_STAGES.ensureUser, stage: 'video' } };
    report(state);
    try {
      const video = usesResumableUpload(fields.video.size) ? await sendLarge() : await sendSmall();
      report({ status: 'done', video });
    } catch (error) {
      fail(error, 'upload');
    }
  };

  return {
    finished: run(),
    stop: (discard) => {
      if (stopped) return;
      stopped = true;
      controller.abort();
      void tus?.abort(discard);
    },
  };
}
