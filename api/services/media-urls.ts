import type { StorageBucket } from '../../shared/constants.ts';

/** The same-origin URL that serves a stored object (see routes/media). */
export function mediaUrl(bucket: StorageBucket, key: string): string {
  return `/media/${bucket}/${key}`;
}
