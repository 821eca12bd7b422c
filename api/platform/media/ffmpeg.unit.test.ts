import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FfmpegNotFoundError, findMediaTools, packetTimes, probe, runFfmpeg } from './ffmpeg.ts';

describe('findMediaTools', () => {
  it('finds a working ffmpeg and ffprobe without configuration', async () => {
    const tools = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
    expect(tools.ffmpeg).toMatch(/ffmpeg$/);
    expect(tools.ffprobe).toMatch(/ffprobe$/);
  });

  it('says clearly when the configured binary does not run', async () => {
    await expect(findMediaTools({ ffmpegPath: '/nonexistent/ffmpeg', ffprobePath: null })).rejects.toThrow(FfmpegNotFoundError);
    await expect(findMediaTools({ ffmpegPath: '/nonexistent/ffmpeg', ffprobePath: null })).rejects.toThrow(/FFMPEG_PATH/);
  });

  it('falls back to the binary shipped in the npm package when none is on PATH', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const tools = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
      expect(tools.ffmpeg).toContain('node_modules/@ffmpeg-installer');
      expect(tools.ffprobe).toContain('node_modules/@ffprobe-installer');
    } finally {
      process.env.PATH = saved;
    }
    // Starting the packaged binaries takes a few seconds when the machine is busy with other tests.
  }, 30_000);
});

describe('packetTimes', () => {
  it('lists the stored times of a variable-rate clip from the keyframe before the start, to the end when asked', async () => {
    const tools = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'packet-times-'));
    try {
      const file = path.join(dir, 'vfr.mp4');
      // Frames at 0, 0.1, 0.15, 0.4, 0.45, ... (in tenths and twentieths): keyframes every 4 frames.
      await runFfmpeg(tools.ffmpeg, [
        '-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=20', '-vf', "settb=1/600,setpts='(N*2+if(mod(N\\,3)\\,0\\,3))/(20*TB)'",
        '-frames:v', '12', '-fps_mode', 'passthrough', '-enc_time_base:v', '1/600', '-c:v', 'libx264', '-g', '4', '-bf', '0', file,
      ]);
      const all = (await packetTimes(tools.ffprobe, file, 0, null)).sort((a, b) => a - b);
      expect(all).toHaveLength(12);
      const lengths = new Set(all.slice(1).map((t, i) => Math.round((t - all[i]!) * 20)));
      expect(lengths.size, 'frames of different lengths').toBeGreaterThan(1);
      // From the middle: the listing starts at the keyframe at or before it.
      const part = await packetTimes(tools.ffprobe, file, all[6]!, null);
      expect(part[0]).toBeCloseTo(all[4]!, 6);
      expect(part.at(-1)).toBeCloseTo(all[11]!, 6);
      // The first frame is stored at 0.15 s: so the file starts.
      expect((await probe(tools.ffprobe, file)).startTime).toBeCloseTo(all[0]!, 6);
      expect(all[0]).toBeCloseTo(0.15, 6);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
