/** A failed API call: `status` 0 means the server was not reached. Branch on `code`, show `message`. */
export class ApiError extends Error {
  override name = 'ApiError' as const;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The server's own `error` text, when its reply carried one (else `message` is ours). */
    readonly serverError: string | null = null,
    /** The reply body as text (cut to 500 characters), for messages that quote it. */
    readonly body: string = '',
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return (error as { name?: unknown } | null)?.name === 'ApiError';
}

/** Aborted fetches are expected (a newer request replaced them) and never shown. */
export function isAbortError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/** A request given `AbortSignal.timeout()` that ran out of time. */
export function isTimeoutError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'TimeoutError';
}
