import { isApiError, isTimeoutError } from '../../lib/ApiError.ts';

/** A plain address check before sending; the server checks again. */
export function isValidEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value.trim());
}

/** Spec section 8, Subscribe: what the modal says when the approval link could not be sent. */
export function subscribeErrorText(error: unknown): string {
  if (isApiError(error) && error.status === 0) return 'Backend server is not running. Please start the backend server first.';
  if (isTimeoutError(error)) return 'Failed to send email: Request timed out.';
  const message = error instanceof Error && error.message ? error.message : 'Unknown error';
  return `Failed to send email: ${message}`;
}
