/**
 * The seeded videos: the demo content the server makes on its first start, whose files are
 * stored at demo/ keys, each with its file and its thumbnail. A test that needs a video that
 * plays takes one of these, never whatever another test uploaded, hid or deleted meanwhile.
 */
import type { APIRequestContext } from '@playwright/test';
import type { ReplyOf } from '../../shared/schemas/route.ts';
import type { feedRoute, videoRoute } from '../../shared/schemas/videos.ts';

export type SeededVideo = ReplyOf<typeof videoRoute>['video'] & { video_url: string; thumbnail_url: string };

const SEEDED_FILE = /\/media\/videos\/demo\/[^/]+$/;

/** Every seeded video on the feed's first page, newest first. */
export async function seededVideos(request: APIRequestContext): Promise<SeededVideo[]> {
  const feed = await request.get('/api/videos?limit=50');
  if (feed.status() !== 200) throw new Error(`The feed answered ${feed.status()}`);
  const { videos } = (await feed.json()) as ReplyOf<typeof feedRoute>;
  const seeded: SeededVideo[] = [];
  for (const card of videos.filter((v) => v.thumbnail_url !== null)) {
    const reply = await request.get(`/api/videos/${card.id}`);
    if (reply.status() !== 200) continue;
    const { video } = (await reply.json()) as ReplyOf<typeof videoRoute>;
    if (video.video_url && SEEDED_FILE.test(new URL(video.video_url, 'http://x').pathname) && video.thumbnail_url) seeded.push(video as SeededVideo);
  }
  if (seeded.length === 0) throw new Error('The feed shows no seeded video with a file and a thumbnail');
  return seeded;
}

export async function seededVideo(request: APIRequestContext): Promise<SeededVideo> {
  return (await seededVideos(request))[0]!;
}
