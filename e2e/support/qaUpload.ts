/** Puts QA clips on the site through the real upload API, as a signed-in creator would. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { QA_CLIPS_DIR, type QaClip } from '../../scripts/qa-clips.ts';
import type { ReplyOf } from '../../shared/schemas/route.ts';
import type { uploadVideoRoute } from '../../shared/schemas/studio.ts';
import type { videoRoute } from '../../shared/schemas/videos.ts';

export const QA_THUMBNAIL = path.resolve(import.meta.dirname, '../../.cache/test-media/thumbnail.jpg');

export interface UploadedClip {
  clip: QaClip;
  id: string;
  /** The video page: /video/{categoryId}/{id}. */
  pagePath: string;
  videoUrl: string;
}

/** `request` must carry a creator's session cookie and this site's Origin. */
export async function uploadQaClip(request: APIRequestContext, clip: QaClip, headers: Record<string, string> = {}): Promise<UploadedClip> {
  const res = await request.post('/api/videos', {
    headers,
    multipart: {
      title: `QA ${clip.name}`,
      description: `Frame-accuracy clip ${clip.name}`,
      category: 'tech',
      video: { name: clip.name, mimeType: clip.codec === 'vp9' ? 'video/webm' : 'video/mp4', buffer: readFileSync(path.join(QA_CLIPS_DIR, clip.name)) },
      thumbnail: { name: 'thumbnail.jpg', mimeType: 'image/jpeg', buffer: readFileSync(QA_THUMBNAIL) },
    },
  });
  if (res.status() !== 201) throw new Error(`Uploading ${clip.name} answered ${res.status()}: ${await res.text()}`);
  const { video } = (await res.json()) as ReplyOf<typeof uploadVideoRoute, 201>;
  const detail = await request.get(`/api/videos/${video.id}`);
  if (!detail.ok()) throw new Error(`GET /api/videos/${video.id} answered ${detail.status()}`);
  const { video: full } = (await detail.json()) as ReplyOf<typeof videoRoute>;
  if (!full.video_url) throw new Error(`${clip.name} has no video URL`);
  return { clip, id: video.id, pagePath: `/video/${video.category_id}/${video.id}`, videoUrl: full.video_url };
}
