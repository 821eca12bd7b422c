/**
 * The server capture returns the frame on screen at a media time: the choice of frame from packet
 * times (variable-rate cases included), and, on every QA clip, the frame's own barcode and PSNR
 * against ffmpeg's decode of exactly that frame and of its neighbours, at times just after the
 * frame starts, in its middle and just before the next one starts.
 */
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeQaClips, QA_CLIPS, QA_CLIPS_DIR, readFrameIndex, VFR_LONG_FRAME, type QaClip } from '../../../scripts/qa-clips.ts';
import { decodeRgba, frameIndexOf, frameTimes, psnr, referenceFrame } from '../../../scripts/qa-frames.ts';
import { captureFrame, chooseFrame, type ListPackets } from './frame.ts';
import { findMediaTools, probe, type MediaTools } from '../../platform/media/ffmpeg.ts';

/**
 * Packet listings as ffprobe reads them (decode order, from the keyframe at or before `from`,
 * until a packet at or after `to`), over a clip with the given presentation times and keyframes.
 */
function lister(times: number[], keyframes: number[]): ListPackets & { calls: Array<[number, number | null]> } {
  const decodeOrder = [...times];
  const calls: Array<[number, number | null]> = [];
  const list = async (from: number, to: number | null) => {
    calls.push([from, to]);
    const key = Math.max(0, ...keyframes.filter((k) => times[k]! <= from));
    const out: number[] = [];
    for (const t of decodeOrder.slice(key)) {
      out.push(t);
      if (to !== null && t >= to) break;
    }
    return out;
  };
  return Object.assign(list, { calls });
}

/** Frames of 1/60, 1/30, 1/20 and 1/15 s in turn, then one of 3 s, then two more. */
const VFR = [0, 1 / 60, 3 / 60, 6 / 60, 10 / 60, 11 / 60, 13 / 60, 16 / 60, 20 / 60, 200 / 60, 201 / 60];

describe('chooseFrame', () => {
  it('picks the last frame at or before the time on a variable-rate clip', async () => {
    const list = lister(VFR, [0, 4]);
    expect((await chooseFrame(list, 0.05))!.index).toBe(2);
    expect((await chooseFrame(list, 6 / 60 - 0.001))!.index).toBe(2);
    expect((await chooseFrame(list, 6 / 60 + 0.001))!.index).toBe(3);
  });

  it('counts a time exactly at a frame (or a rounding error below it) as that frame', async () => {
    const list = lister(VFR, [0]);
    expect((await chooseFrame(list, 11 / 60))!.index).toBe(5);
    expect((await chooseFrame(list, Number((11 / 60).toFixed(6))))!.index).toBe(5);
  });

  it('finds a long frame that started seconds before the time, reading from the start again when the first listing misses it', async () => {
    // Keyframes at frames 0 and 9: a listing from 3.2 - 2 s starts at frame 0 and holds frame 8.
    const list = lister(VFR, [0, 9]);
    const chosen = (await chooseFrame(list, 3.3))!;
    expect(chosen).toMatchObject({ index: 8, next: 200 / 60 });
    // A listing whose keyframe lies after the time: read again from the start.
    const late = lister(VFR, [9]);
    const orig = late.calls;
    const wrapped: ListPackets = async (from, to) => (from > 0 ? [200 / 60, 201 / 60] : late(from, to));
    expect((await chooseFrame(wrapped, 3.3))!.index).toBe(8);
    expect(orig.at(-1)![0]).toBe(0);
  });

  it('shows the first frame before it starts and the last one after the end', async () => {
    const list = lister([0.007, 0.04, 0.074], [0]);
    expect(await chooseFrame(list, 0)).toMatchObject({ index: 0, pts: 0.007 });
    const end = lister(VFR, [0]);
    expect(await chooseFrame(end, 99)).toMatchObject({ index: VFR.length - 1, next: null, to: null });
    // Past the last frame, the listing is read to the end of the file.
    expect(end.calls.at(-1)![1]).toBeNull();
    expect(await chooseFrame(async () => [], 1)).toBeNull();
  });

  it('counts frames that share a time as one', async () => {
    const chosen = (await chooseFrame(lister([0, 0.1, 0.1, 0.2], [0]), 0.15))!;
    expect(chosen).toMatchObject({ pts: 0.1, next: 0.2 });
    expect(chosen.from).toBeGreaterThan(0);
    expect(chosen.to).toBeLessThan(0.2);
  });
});

let tools: MediaTools;
beforeAll(async () => {
  await makeQaClips();
  tools = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
}, 300_000);

/** Frames to capture in a clip: ones after short and long frames in the variable-rate clip. */
function framesOf(clip: QaClip, count: number): number[] {
  return clip.vfr ? [5, 22, VFR_LONG_FRAME, VFR_LONG_FRAME + 1] : [1, Math.floor(count / 2), count - 3];
}

describe('server frame capture', () => {
  for (const clip of QA_CLIPS) {
    it(`returns frame N at times inside frame N: ${clip.name}`, async () => {
      const file = path.join(QA_CLIPS_DIR, clip.name);
      const info = await probe(tools.ffprobe, file);
      const times = await frameTimes(tools.ffprobe, clip);
      for (const n of framesOf(clip, times.length)) {
        const refs = await Promise.all([n - 1, n, n + 1].map(async (i) => (await decodeRgba(await referenceFrame(tools.ffmpeg, clip, i))).data));
        const [start, end] = [times[n]!, times[n + 1]!];
        // Just after the frame starts (as a paused player reports it), its middle, just before the next.
        for (const time of [start + 0.0001, (start + end) / 2, end - 0.001]) {
          const jpeg = await captureFrame({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, file, time, quality: 85, info });
          const label = `${clip.name} frame ${n} at ${time.toFixed(4)} s`;
          expect(await frameIndexOf(jpeg, clip), label).toBe(n);
          const got = await decodeRgba(jpeg);
          const [before, same, after] = refs.map((r) => psnr(got.data, r)) as [number, number, number];
          expect(same, `${label}: ${same.toFixed(1)} dB`).toBeGreaterThanOrEqual(40);
          expect(Math.max(before, after), `${label} against its neighbours`).toBeLessThan(same - 6);
        }
      }
    }, 120_000);
  }

  it('returns a rotated phone clip upright', async () => {
    const clip = QA_CLIPS.find((c) => c.rotate)!;
    const file = path.join(QA_CLIPS_DIR, clip.name);
    const info = await probe(tools.ffprobe, file);
    const jpeg = await captureFrame({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, file, time: 10.5 / 30, quality: 85, info });
    const meta = await sharp(jpeg).metadata();
    expect([meta.width, meta.height]).toEqual([720, 1280]);
    // Undo the display rotation (90 degrees counter-clockwise) to read the barcode.
    const back = await decodeRgba(await sharp(jpeg).rotate(90).toBuffer());
    expect(readFrameIndex(back.data, back.width)).toBe(10);
  });
});
