import { describe, expect, it } from 'vitest';
import { FfmpegNotFoundError, findMediaTools } from './ffmpeg.ts';

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
