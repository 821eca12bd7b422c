/**
 * Multipart uploads with progress. fetch() reports no upload progress, so this one uses
 * XMLHttpRequest; it answers like `request()`: the parsed reply, or an `ApiError`
 * (status 0 when the server was not reached), or an AbortError when `signal` aborted it.
 */
import type { ParamsOf, RouteDef } from '../../shared/schemas/route.ts';
import { buildUrl, NETWORK_MESSAGE, settleReply, type OkReplyOf } from './api.ts';
import { ApiError } from './ApiError.ts';

export interface UploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** The whole request body, in bytes. */
  total: number;
}

export type UploadOptions<R extends RouteDef> = ([ParamsOf<R>] extends [undefined]
  ? { params?: undefined }
  : { params: ParamsOf<R> }) & {
  /** Sent as multipart/form-data, parts in the order they were appended. */
  form: FormData;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
};

const abortError = () => new DOMException('The upload was aborted.', 'AbortError');

/** Builds an uploader over any XMLHttpRequest factory; tests pass a fake one. */
export function createUploader(makeXhr: () => XMLHttpRequest) {
  return function uploadWithProgress<R extends RouteDef>(route: R, options: UploadOptions<R>): Promise<OkReplyOf<R>> {
    return new Promise<OkReplyOf<R>>((resolve, reject) => {
      const { signal, onProgress } = options;
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const xhr = makeXhr();
      const onAbort = () => xhr.abort();
      const settle = (outcome: () => void) => {
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      xhr.open(route.method, buildUrl(route.url, options.params));
      xhr.setRequestHeader('accept', 'application/json');
      if (onProgress) {
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
        };
      }
      xhr.onload = () =>
        settle(() => {
          try {
            resolve(settleReply<R>(xhr.status, xhr.responseText));
          } catch (error) {
            reject(error);
          }
        });
      xhr.onerror = () => settle(() => reject(new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE)));
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => settle(() => reject(abortError()));
      xhr.send(options.form);
    });
  };
}

export const uploadWithProgress = createUploader(() => new XMLHttpRequest());
