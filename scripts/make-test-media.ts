/**
 * Makes the clips the browser tests use, with ffmpeg, into .cache/test-media (ignored by git;
 * made once, reused). Each is short, with frame numbers that differ visibly, and tagged the
 * way browsers need to show the colours ffmpeg encoded.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { findMediaTools, runFfmpeg } from '../api/platform/media/ffmpeg.ts';

export const TEST_MEDIA_DIR = path.resolve(import.meta.dirname, '../.cache/test-media');

const BT709 = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'];
const TO_BT709 = 'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p';

export const TEST_CLIPS: Record<string, string[]> = {
  'h264-720p.mp4': [
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', '5', '-vf', TO_BT709, '-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', ...BT709,
    '-c:a', 'aac', '-movflags', '+faststart',
  ],
  'vp9-720p.webm': [
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=48000',
    '-t', '3', '-vf', TO_BT709, '-c:v', 'libvpx-vp9', '-b:v', '2M', '-deadline', 'realtime', '-cpu-used', '8', ...BT709,
    '-c:a', 'libopus',
  ],
  'thumbnail.jpg': ['-f', 'lavfi', '-i', 'testsrc2=size=640x360', '-frames:v', '1', '-q:v', '3'],
  'h264-small.mp4': [
    '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '2', '-vf', TO_BT709,
    '-c:v', 'libx264', '-preset', 'veryfast', ...BT709, '-movflags', '+faststart',
  ],
};

export async function makeTestMedia(): Promise<string[]> {
  mkdirSync(TEST_MEDIA_DIR, { recursive: true });
  const tools = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: process.env.FFPROBE_PATH ?? null });
  const made: string[] = [];
  for (const [name, args] of Object.entries(TEST_CLIPS)) {
    const out = path.join(TEST_MEDIA_DIR, name);
    if (existsSync(out)) continue;
    const tmp = `${out}.tmp${path.extname(name)}`;
    await runFfmpeg(tools.ffmpeg, ['-y', ...args, tmp]);
    renameSync(tmp, out);
    made.push(name);
  }
  return made;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  makeTestMedia().then(
    (made) => console.log(made.length ? `Made ${made.join(', ')} in ${TEST_MEDIA_DIR}` : `Test media already in ${TEST_MEDIA_DIR}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
