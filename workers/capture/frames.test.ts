import { describe, expect, it } from 'vitest';
import { displaySize, extractArgs, FALLBACK_FPS, parseProbeLog, parseShownPts } from './frames.ts';

const MP4 = [
  "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'input.mp4':",
  '  Duration: 00:00:02.00, start: 0.000000, bitrate: 4266 kb/s',
  '  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(tv, bt709, progressive), 1280x720 [SAR 1:1 DAR 16:9], 4261 kb/s, 30 fps, 30 tbr, 15360 tbn (default)',
  '    Metadata:',
  '      handler_name    : VideoHandler',
  '    Side data:',
  '      displaymatrix: rotation of -90.00 degrees',
  'At least one output file must be specified',
];
const WEBM = [
  "Input #0, matroska,webm, from 'input.webm':",
  '  Stream #0:0: Video: vp9 (Profile 0), yuv420p(tv, bt709), 1920x1080, SAR 1:1 DAR 16:9, 25 fps, 25 tbr, 1k tbn (default)',
  '  Stream #0:1: Audio: opus, 48000 Hz, stereo, fltp (default)',
];

describe('parseProbeLog', () => {
  it('reads size, rate, colour tags and the display rotation of a phone clip', () => {
    expect(parseProbeLog(MP4)).toEqual({ width: 1280, height: 720, fps: 30, rotation: -90, matrix: 'bt709', range: 'tv' });
    expect(displaySize(parseProbeLog(MP4)!)).toEqual({ width: 720, height: 1280 });
  });

  it('reads a WebM stream with no rotation', () => {
    const info = parseProbeLog(WEBM)!;
    expect(info).toEqual({ width: 1920, height: 1080, fps: 25, rotation: 0, matrix: 'bt709', range: 'tv' });
    expect(displaySize(info)).toEqual({ width: 1920, height: 1080 });
  });

  it('falls back as a browser does: BT.709 for untagged HD, BT.601 below 720 lines; tbr without fps', () => {
    const hd = parseProbeLog(['  Stream #0:0: Video: h264 (Main), yuv420p, 1920x1080, 29.97 tbr, 90k tbn']);
    expect(hd).toMatchObject({ matrix: 'bt709', fps: 29.97, range: 'tv' });
    const sd = parseProbeLog(['  Stream #0:0: Video: mpeg4 (Simple Profile), yuv420p, 640x480 [SAR 1:1 DAR 4:3], 25 fps, 25 tbr, 25 tbn']);
    expect(sd).toMatchObject({ matrix: 'bt601', fps: 25 });
    const tagged = parseProbeLog(['  Stream #0:0: Video: h264, yuvj420p(pc, smpte170m/bt709/bt709, progressive), 1280x720, 60 fps']);
    expect(tagged).toMatchObject({ matrix: 'bt601', range: 'pc', fps: 60 });
  });

  it('ignores side data of a later stream and answers null without a video stream', () => {
    const later = ['  Stream #0:0: Video: h264, yuv420p, 1280x720, 30 fps', '  Stream #0:1: Audio: aac', '      displaymatrix: rotation of 90.00 degrees'];
    expect(parseProbeLog(later)!.rotation).toBe(0);
    expect(parseProbeLog(['  Stream #0:0: Audio: opus, 48000 Hz'])).toBeNull();
  });
});

/** The frame ffmpeg keeps with extractArgs' select expression, for frames at pts `start + i / fps`. */
function keptFrame(args: string[], start: number, fps: number, count: number): number | null {
  const vf = args[args.indexOf('-vf') + 1]!;
  const m = /lte\(t\\,([\d.]+)\)\*gt\(t\+([\d.]+)\\,([\d.]+)\)/.exec(vf)!;
  const [target, frame] = [Number(m[1]), Number(m[2])];
  const seek = Number(args[args.indexOf('-ss') + 1]);
  for (let i = 0; i < count; i++) {
    const t = Math.round((start + i / fps) * 1e6) / 1e6;
    if (t >= seek && t <= target && t + frame > target) return i;
  }
  return null;
}

describe('extractArgs', () => {
  const info = (fps: number | null) => ({ width: 1280, height: 720, fps, rotation: 0, matrix: 'bt709' as const, range: 'tv' as const });

  it('keeps the frame whose display interval holds the target, not the first frame after it', () => {
    for (const fps of [24, 25, 30, 60]) {
      for (const n of [0, 1, 37, 47]) {
        // The centre of frame n, as a test seeks to, and the start of frame n plus a millisecond.
        expect(keptFrame(extractArgs('in.mp4', 'out', info(fps), (n + 0.5) / fps), 0, fps, 48)).toBe(n);
        expect(keptFrame(extractArgs('in.mp4', 'out', info(fps), n / fps + 0.001), 0, fps, 48)).toBe(n);
      }
    }
  });

  it('handles a WebM whose first frame starts at 7 ms', () => {
    const start = 0.007;
    for (const n of [0, 12, 37]) {
      const pts = Math.round((start + n / 30) * 1000) / 1000;
      expect(keptFrame(extractArgs('in.webm', 'out', info(30), pts + 0.001), start, 30, 60)).toBe(n);
    }
  });

  it('decodes from a little before the target, converts with the stream matrix, and outputs one raw RGBA frame', () => {
    const args = extractArgs('in.mp4', 'frame.rgba', info(30), 1.25);
    expect(Number(args[args.indexOf('-ss') + 1])).toBeCloseTo(1.25 - 3 / 30, 5);
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(args[args.indexOf('-vf') + 1]).toContain('scale=in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgba');
    expect(args.slice(-7)).toEqual(['-frames:v', '1', '-f', 'rawvideo', '-truncate', '0', 'frame.rgba']);
    const early = extractArgs('in.mp4', 'o', info(30), 0.01);
    expect(Number(early[early.indexOf('-ss') + 1])).toBe(0);
  });

  it('assumes the fallback rate when the stream declares none', () => {
    const args = extractArgs('in.mp4', 'o', info(null), 1);
    expect(args[args.indexOf('-vf') + 1]).toContain(`gt(t+${(1 / FALLBACK_FPS).toFixed(6)}`);
  });
});

describe('parseShownPts', () => {
  it('reads the presentation time of the kept frame from showinfo', () => {
    const line = '[Parsed_showinfo_1 @ 0x1a2b] n:   0 pts:  18944 pts_time:1.233333 duration:    512 pos:   612345 fmt:yuv420p';
    expect(parseShownPts(['frame=    1 fps=0.0', line])).toBeCloseTo(1.233333, 6);
    expect(parseShownPts(['nothing here'])).toBeNull();
  });
});
