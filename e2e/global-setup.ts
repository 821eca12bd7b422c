import path from 'node:path';
import { findMediaTools } from '../api/platform/media/ffmpeg.ts';
import { fillMediaCache } from '../api/seed/seed-demo.ts';
import { makeTestMedia } from '../scripts/make-test-media.ts';
import { makeQaClips } from '../scripts/qa-clips.ts';

export default async function globalSetup() {
  await makeTestMedia();
  await makeQaClips();
  const tools = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: process.env.FFPROBE_PATH ?? null });
  await fillMediaCache(tools, path.resolve(import.meta.dirname, '../.cache/demo-media'));
}
