/**
 * Large videos go up with the tus protocol (RESUMABLE_UPLOAD in shared/schemas/studio.ts), in
 * chunks, so a dropped connection costs at most one chunk and choosing the same file again
 * after a reload or a failure carries on where the server's copy stopped. The tus client is
 * injected (`createResumableUploader(makeUpload)`) so tests drive it without a network.
 */
import { Upload, type PreviousUpload, type UploadOptions } from 'tus-js-client';
import { RESUMABLE_UPLOAD, UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import { NETWORK_MESSAGE, settleReply } from '../../lib/api.ts';
import { ApiError, isApiError } from '../../lib/ApiError.ts';

const MB = 1024 * 1024;

/** Each PATCH carries at most this much: the most a dropped connection can cost, and how often the bar hears of bytes the server kept. */
export const CHUNK_BYTES = 16 * MB;
/** Waits before each retry after a failed request; the count resets once a retry gets bytes through. */
export const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000];

/** Whether a video of `bytes` goes through the resumable path rather than one multipart request. */
export function usesResumableUpload(bytes: number): boolean {
  return bytes > RESUMABLE_UPLOAD.thresholdBytes;
}

/** What this module uses of tus-js-client's `Upload`. */
export interface TusUpload {
  url: string | null;
  start(): void;
  abort(shouldTerminate?: boolean): Promise<void>;
  findPreviousUploads(): Promise<PreviousUpload[]>;
  resumeFromPreviousUpload(previous: PreviousUpload): void;
}

export type MakeTusUpload = (file: File, options: UploadOptions) => TusUpload;

export interface ResumableCallbacks {
  /** Bytes of the file the server has been sent so far, and the file's size. */
  onProgress?: (sent: number, total: number) => void;
  /** A request failed and will be retried (1 for the first retry). */
  onRetry?: (attempt: number) => void;
  /** An upload of this file left unfinished earlier is carried on (the server still had it), not restarted. */
  onResume?: () => void;
}

export interface ResumableResult {
  /** The last path segment of the upload's URL: what finishResumableUploadRoute calls upload_id. */
  uploadId: string;
  uploadUrl: string;
}

export interface ResumableUpload {
  /** Settles when every byte is on the server; rejects with an ApiError, or an AbortError after `abort`. */
  done: Promise<ResumableResult>;
  /**
   * Stops sending. With `discard` the server's partial copy is deleted too; without it (leaving
   * the page) it stays, and choosing the same file within RESUMABLE_UPLOAD.expiryHours resumes it.
   */
  abort(discard?: boolean): Promise<void>;
}

/** `upload_id` for the finish request: the last segment of the tus upload URL. */
export function uploadIdFromUrl(url: string): string {
  const base = typeof location === 'undefined' ? 'http://localhost/' : location.href;
  const segment = new URL(url, base).pathname.split('/').filter(Boolean).at(-1);
  if (!segment) throw new TypeError(`No upload id in ${url}`);
  return decodeURIComponent(segment);
}

/** The endpoint as an absolute URL: tus resolves the Location it is given against it. */
export function resumableEndpoint(): string {
  return typeof location === 'undefined' ? RESUMABLE_UPLOAD.endpoint : new URL(RESUMABLE_UPLOAD.endpoint, location.origin).href;
}

/**
 * Retry what a retry can mend (no answer, a 5xx, 409 offset mismatch, 423 locked), as
 * tus-js-client does by default; a 4xx refusal (413 over the limit, 403) is final.
 */
export function isRetryable(status: number): boolean {
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  return (status < 400 || status >= 500 || status === 409 || status === 423) && online;
}

interface TusError {
  message?: string;
  originalResponse?: { getStatus(): number; getBody(): string } | null;
}

/** A tus failure in the app's error shape: the server's own `{ error, code }` where it answered. */
export function tusFailure(error: unknown): ApiError {
  if (isApiError(error)) return error;
  const response = (error as TusError | null)?.originalResponse ?? null;
  const status = response?.getStatus() ?? 0;
  if (status === 0) return new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE);
  const body = response?.getBody() ?? '';
  try {
    settleReply(status, body);
  } catch (failure) {
    if (isApiError(failure)) {
      // A proxy or the tus layer itself may answer in plain text; its words beat "not JSON".
      const text = body.trim();
      if (failure.code === 'NOT_JSON' && text !== '' && text.length <= 300 && !text.startsWith('<')) {
        return new ApiError(status, 'UPLOAD_FAILED', UPLOAD_MESSAGES.videoFailed(text), text, body.slice(0, 500));
      }
      return failure;
    }
  }
  // A 2xx the protocol did not expect (no Location, no offset).
  return new ApiError(status, 'UPLOAD_PROTOCOL', UPLOAD_MESSAGES.videoFailed('the server answered the upload in an unexpected way'));
}

const abortError = () => new DOMException('The upload was aborted.', 'AbortError');

/** The most recently started of the uploads tus remembers for this file. */
function newest(previous: PreviousUpload[]): PreviousUpload | undefined {
  return previous
    .filter((p) => p.uploadUrl)
    .sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
}

/**
 * Builds the uploader over any tus `Upload` factory. `owner` (the creator's id) is part of
 * each file's fingerprint, so one creator never tries to resume another's upload on a shared
 * browser.
 */
export function createResumableUploader(makeUpload: MakeTusUpload = (file, options) => new Upload(file, options)) {
  return function sendResumable(file: File, owner: string, callbacks: ResumableCallbacks = {}): ResumableUpload {
    let aborted = false;
    let settled = false;
    let previousUrl: string | null = null;
    let resumed = false;
    let resolveDone: (result: ResumableResult) => void = () => undefined;
    let rejectDone: (error: unknown) => void = () => undefined;
    const done = new Promise<ResumableResult>((resolve, reject) => {
      resolveDone = resolve;
      rejectDone = reject;
    });
    // Stopping is expected: a caller that has not awaited `done` yet must not see an unhandled rejection.
    done.catch(() => undefined);
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      rejectDone(error instanceof DOMException ? error : tusFailure(error));
    };

    const upload = makeUpload(file, {
      endpoint: resumableEndpoint(),
      metadata: { filename: file.name, filetype: file.type },
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      fingerprint: (f: File, opts: UploadOptions) =>
        Promise.resolve(['framemerch', owner, f.name, f.type, f.size, f.lastModified, opts.endpoint].join('-')),
      onProgress: (sent, total) => callbacks.onProgress?.(sent, total),
      // Called once the server has answered for the upload: the earlier one (HEAD), or a new one (POST) when it had expired.
      onUploadUrlAvailable: () => {
        if (resumed || !previousUrl || upload.url !== previousUrl) return;
        resumed = true;
        callbacks.onResume?.();
      },
      onShouldRetry: (error, attempt) => {
        const retry = isRetryable(error.originalResponse?.getStatus() ?? 0);
        if (retry && !aborted) callbacks.onRetry?.(attempt + 1);
        return retry;
      },
      onSuccess: () => {
        if (settled || aborted) return;
        const uploadUrl = upload.url;
        if (!uploadUrl) {
          fail(new ApiError(0, 'UPLOAD_PROTOCOL', UPLOAD_MESSAGES.videoFailed('the server gave the upload no address')));
          return;
        }
        settled = true;
        resolveDone({ uploadUrl, uploadId: uploadIdFromUrl(uploadUrl) });
      },
      onError: fail,
    });

    const begin = async () => {
      let previous: PreviousUpload | undefined;
      try {
        previous = newest(await upload.findPreviousUploads());
      } catch {
        previous = undefined; // Storage unreadable (private mode): a fresh upload still works.
      }
      if (aborted) return;
      if (previous) {
        // tus asks the server for the offset first; an expired upload (404/410) is forgotten and created anew.
        previousUrl = previous.uploadUrl;
        upload.resumeFromPreviousUpload(previous);
      }
      upload.start();
    };
    void begin();

    return {
      done,
      abort: async (discard = false) => {
        if (aborted) return;
        aborted = true;
        fail(abortError());
        // A failed delete leaves the bytes to the server's expiry; nothing to show for it.
        await upload.abort(discard).catch(() => undefined);
      },
    };
  };
}

export const sendResumable = createResumableUploader();
