import type { StorageBucket } from '../../shared/constants.ts';

/** The same-origin URL that serves a stored object (see routes/media). */
export function mediaUrl(bucket: StorageBucket, key: string): string {
  return `/media/${bucket}/${key}`;
}

/** The storage key behind a media URL of this site for that bucket, or null. */
export function storageKeyOf(bucket: StorageBucket, url: string | null | undefined): string | null {
  const prefix = `/media/${bucket}/`;
  return url && url.startsWith(prefix) ? url.slice(prefix.length) || null : null;
}
