/**
 * Runs once before the API tests: makes the demo clips into the shared media cache (so test
 * files that seed do not all run ffmpeg at once) and says which database the tests use. Each
 * test file then gets a database of its own (see harness.ts).
 */
import path from 'node:path';
import { findMediaTools } from '../platform/media/ffmpeg.ts';
import { fillMediaCache } from '../seed/seed-demo.ts';

export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  console.log(url ? `API tests on PostgreSQL (${new URL(url).host}), a fresh database per file` : 'API tests on PGlite, in memory, a fresh database per file');
  const tools = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: process.env.FFPROBE_PATH ?? null });
  await fillMediaCache(tools, path.resolve(import.meta.dirname, '../../.cache/demo-media'));
}
