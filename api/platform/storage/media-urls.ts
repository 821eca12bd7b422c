import type { StorageBucket } from '../../../shared/constants.ts';

/** The same-origin URL that serves a stored object (see routes/media). */
export function mediaUrl(bucket: StorageBucket, key: string): string {
  return `/media/${bucket}/${key}`;
}

/** The storage key behind a media URL of this site for that bucket, or null. */
export function storageKeyOf(bucket: StorageBucket, url: string | null | undefined): string | null {
  const prefix = `/media/${bucket}/`;
  return url && url.startsWith(prefix) ? url.slice(prefix.length) || null : null;
}

/** A stored video's key in a URL of this site: absolute on one of `hosts`, or a path. Never fetched. */
const VIDEO_URL = /^(?:(https?):\/\/([^/?#\\]+))?\/media\/videos\/([a-z0-9-]{1,63}\/[a-z0-9-]{1,81}\.(?:mp4|webm))$/;

export function storedVideoKey(url: string, hosts: readonly (string | undefined)[]): string | null {
  const m = VIDEO_URL.exec(url);
  if (!m) return null;
  if (m[1]) {
    let host: string;
    try {
      // The parsed host, not the text: the URL parser's view is what a fetch would use.
      host = new URL(url).host;
    } catch {
      return null;
    }
    const allowed = hosts.flatMap((h) => {
      if (!h) return [];
      try {
        return [new URL(`${m[1]}://${h}`).host];
      } catch {
        return [];
      }
    });
    if (!allowed.includes(host)) return null;
  }
  return m[3]!;
}
