/** Spec: a toast stays 3 s, or 5 s when its message is long enough to need the extra time to read. */
export const TOAST_SHORT_MS = 3_000;
export const TOAST_LONG_MS = 5_000;
/** Messages longer than this many characters are "long". */
export const TOAST_LONG_CHARS = 60;

export function toastDuration(message: string): number {
  return message.length > TOAST_LONG_CHARS ? TOAST_LONG_MS : TOAST_SHORT_MS;
}
