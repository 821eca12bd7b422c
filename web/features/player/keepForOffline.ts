import type { VideoDetail } from './useVideo.ts';

type Kept = Pick<VideoDetail, 'id' | 'video_url' | 'thumbnail_url' | 'poster_url'>;

/** What a video page needs offline: its details, the video file, its thumbnail and poster. */
export function offlineMedia(video: Kept): string[] {
  const media = [video.video_url, video.thumbnail_url, video.poster_url].filter((u): u is string => typeof u === 'string' && u !== '');
  return [`/api/videos/${encodeURIComponent(video.id)}`, ...media];
}

/**
 * Asks the service worker to keep what the page needs, so it reopens offline with the video.
 * Without a service worker (development, a browser that blocks it) nothing happens.
 */
export function keepForOffline(video: Kept): void {
  const urls = offlineMedia(video);
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return;
  navigator.serviceWorker.ready
    .then((registration) => registration.active?.postMessage({ type: 'keep-media', urls }))
    .catch(() => undefined);
}
