import { useLocation } from 'react-router';

/**
 * A page may hand the next one a sentence to show (navigate(to, { state: { message } })), such as
 * payment setup telling /dashboard or /signup what just happened. It lives in the history entry,
 * so it shows once for that visit and never in the URL.
 */
export function passedMessage(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const message = (state as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() ? message.trim().slice(0, 300) : null;
}

/** The message the previous page handed this one, or null. */
export function usePassedMessage(): string | null {
  return passedMessage(useLocation().state);
}
