import { describe, expect, it } from 'vitest';
import { frameAt, sortedTimes } from '../../shared/media/frameAt.ts';
import { displaySize, extractArgs, listArgs, parseFrameList, parseProbeLog, parseShownPts, parseStartTime } from './frames.ts';

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

/** Presentation times of a variable-rate clip: frames of 1/60, 1/30, 1/20 and 1/15 s in turn, then one of 0.567 s. */
const VFR = [0, 1 / 60, 3 / 60, 6 / 60, 10 / 60, 11 / 60, 13 / 60, 16 / 60, 20 / 60, 54 / 60, 55 / 60];

describe('frameAt', () => {
  it('picks the last frame whose time is at or before the target, whatever the frame lengths', () => {
    expect(frameAt(VFR, 0.05)!.index).toBe(2);
    expect(frameAt(VFR, 0.0999)!.index).toBe(2);
    expect(frameAt(VFR, 0.1001)!.index).toBe(3);
    // Inside the long frame: near its start, in its middle and just before the next frame.
    for (const t of [20 / 60 + 0.001, 0.6, 54 / 60 - 0.001]) expect(frameAt(VFR, t)!.index).toBe(8);
  });

  it('counts a target exactly at a frame time, or a rounding error below it, as that frame', () => {
    expect(frameAt(VFR, 11 / 60)!.index).toBe(5);
    expect(frameAt(VFR, Number((11 / 60).toFixed(6)))!.index).toBe(5);
    expect(frameAt(VFR, 11 / 60 - 1e-5)!.index).toBe(4);
  });

  it('shows the first frame before it starts and the last after the end; nothing without frames', () => {
    expect(frameAt([0.007, 0.04, 0.074], 0)).toMatchObject({ index: 0, pts: 0.007 });
    expect(frameAt(VFR, 99)).toMatchObject({ index: VFR.length - 1, next: null, to: null });
    expect(frameAt([], 1)).toBeNull();
  });

  it('takes the last of frames that share a time, and matches them by their time alone', () => {
    const tied = [0, 0.1, 0.1, 0.2];
    expect(frameAt(tied, 0.15)).toMatchObject({ index: 2, pts: 0.1, next: 0.2 });
    expect(frameAt(tied, 0.1)!.index).toBe(2);
    const chosen = frameAt(tied, 0.15)!;
    expect(chosen.from).toBeLessThan(0.1);
    expect(chosen.to).toBeGreaterThan(0.1);
    expect(chosen.from).toBeGreaterThan(0);
    expect(chosen.to).toBeLessThan(0.2);
  });

  it('matches a frame by a range that holds its time and no neighbour, even at 1000 fps', () => {
    const fast = Array.from({ length: 50 }, (_, i) => i / 1000);
    const chosen = frameAt(fast, 0.0205)!;
    expect(chosen.pts).toBeCloseTo(0.02, 9);
    expect(chosen.from).toBeGreaterThan(0.019);
    expect(chosen.to).toBeLessThan(0.021);
  });

  it('sorts times from a listing in decode order and drops repeats', () => {
    expect(sortedTimes([0, 0.1, 0.05, 0.05, NaN, 0.2])).toEqual([0, 0.05, 0.1, 0.2]);
  });
});

describe('parseFrameList and parseStartTime', () => {
  it('reads packet times in the listing\'s time base, in presentation order', () => {
    const text = [
      '#tb 0: 1/15360', '#media_type 0: video', '#codec_id 0: h264',
      '0,      -1024,          0,      512,     4154, 0x3d7fac48',
      '0,       -512,       2560,      512,     1642, 0x75022964, F=0x0',
      '0,          0,       1024,      512,      837, 0x26e0a081, F=0x0',
    ].join('\n');
    expect(parseFrameList(text)).toEqual([0, 1024 / 15360, 2560 / 15360]);
    expect(parseFrameList('no listing')).toEqual([]);
  });

  it('reads the start time of a WebM from the log', () => {
    expect(parseStartTime(["Input #0, matroska,webm, from 'input.webm':", '  Duration: 00:00:01.01, start: 0.007000, bitrate: 290 kb/s'])).toBeCloseTo(0.007, 6);
    expect(parseStartTime(MP4)).toBe(0);
    expect(parseStartTime([])).toBe(0);
  });
});

/** The frame ffmpeg keeps with extractArgs' seek and select expression, for frames at `times`. */
function keptFrame(args: string[], times: readonly number[], start: number): number | null {
  const vf = args[args.indexOf('-vf') + 1]!;
  const m = /gte\(t\\,(-?[\d.]+)\)(?:\*lt\(t\\,([\d.]+)\))?/.exec(vf)!;
  const [from, to] = [Number(m[1]), m[2] === undefined ? Infinity : Number(m[2])];
  // With -copyts, frames before the seek time plus the start time are dropped.
  const trim = Number(args[args.indexOf('-ss') + 1]) + start;
  for (let i = 0; i < times.length; i++) {
    const t = Math.round(times[i]! * 1e6) / 1e6;
    if (t >= trim && t >= from && t < to) return i;
  }
  return null;
}

describe('extractArgs', () => {
  const info = { width: 1280, height: 720, fps: 30, rotation: 0, matrix: 'bt709' as const, range: 'tv' as const };
  const kept = (times: readonly number[], target: number, start = 0) => keptFrame(extractArgs('in.mp4', 'out', info, frameAt(times, target)!, start), times, start);

  it('keeps the frame on screen at the target on constant-rate clips, not the first frame after it', () => {
    for (const fps of [24, 25, 30, 60]) {
      const times = Array.from({ length: 48 }, (_, i) => i / fps);
      for (const n of [0, 1, 37, 47]) {
        // The centre of frame n, as a test seeks to, and the start of frame n plus a millisecond.
        expect(kept(times, (n + 0.5) / fps)).toBe(n);
        expect(kept(times, n / fps + 0.001)).toBe(n);
      }
    }
  });

  it('keeps the frame on screen on a variable-rate clip: just after its start, just before the next, inside a long frame', () => {
    for (let n = 0; n < VFR.length - 1; n++) {
      expect(kept(VFR, VFR[n]! + 0.001), `just after frame ${n} starts`).toBe(n);
      expect(kept(VFR, VFR[n + 1]! - 0.001), `just before frame ${n + 1} starts`).toBe(n);
    }
    expect(kept(VFR, 100)).toBe(VFR.length - 1);
  });

  it('seeks to the frame itself, so a long frame that started long before the target is still decoded', () => {
    const args = extractArgs('in.mp4', 'out', info, frameAt(VFR, 54 / 60 - 0.001)!, 0);
    expect(Number(args[args.indexOf('-ss') + 1])).toBeLessThan(20 / 60);
    expect(Number(args[args.indexOf('-ss') + 1])).toBeGreaterThan(20 / 60 - 0.1);
  });

  it('handles a WebM whose first frame starts at 7 ms', () => {
    const start = 0.007;
    const times = Array.from({ length: 60 }, (_, n) => Math.round((start + n / 30) * 1000) / 1000);
    for (const n of [0, 12, 37]) expect(kept(times, times[n]! + 0.001, start)).toBe(n);
  });

  it('decodes from just before the frame, converts with the stream matrix, and outputs one raw RGBA frame', () => {
    const times = Array.from({ length: 60 }, (_, n) => n / 30);
    const args = extractArgs('in.mp4', 'frame.rgba', info, frameAt(times, 1.25)!, 0);
    expect(Number(args[args.indexOf('-ss') + 1])).toBeCloseTo(37 / 30 - 0.0005 - 0.05, 5);
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(args).toContain('-copyts');
    expect(args[args.indexOf('-vf') + 1]).toContain('showinfo,scale=in_color_matrix=bt709:in_range=tv:out_range=pc,format=rgba');
    expect(args.slice(-8)).toEqual(['-frames:v', '1', '-f', 'rawvideo', '-truncate', '0', '-y', 'frame.rgba']);
    const early = extractArgs('in.mp4', 'o', info, frameAt(times, 0.01)!, 0);
    expect(Number(early[early.indexOf('-ss') + 1])).toBe(0);
  });

  it('lists packets of the first video stream with their own timestamps, copying rather than decoding', () => {
    const args = listArgs('input.mp4', 'frames.crc');
    expect(args).toEqual(expect.arrayContaining(['-copyts', '-map', '0:v:0', '-c', 'copy', '-f', 'framecrc']));
    expect(args.indexOf('-copyts')).toBeLessThan(args.indexOf('-i'));
  });
});

describe('parseShownPts', () => {
  it('reads the presentation time of the kept frame from showinfo', () => {
    const line = '[Parsed_showinfo_1 @ 0x1a2b] n:   0 pts:  18944 pts_time:1.233333 duration:    512 pos:   612345 fmt:yuv420p';
    expect(parseShownPts(['frame=    1 fps=0.0', line])).toBeCloseTo(1.233333, 6);
    expect(parseShownPts(['nothing here'])).toBeNull();
  });
});
