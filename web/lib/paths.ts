/** Addresses of pages, built in one place so links and routes agree. */

export function videoPath(categoryId: number, videoId: string): string {
  return `/video/${categoryId}/${encodeURIComponent(videoId)}`;
}

export function profilePath(username: string): string {
  return `/profile/${encodeURIComponent(username)}`;
}

export function channelPath(slug: string): string {
  return `/channel/${encodeURIComponent(slug)}`;
}
