import { describe, expect, it } from 'vitest';
import { CAPTURE_FAILED } from '../../../shared/schemas/capture.ts';
import { timeInsideFrame } from './frameTime.ts';
import { chainFrom, runChain, type CaptureStep, type StepFailure } from './runChain.ts';
import type { CaptureSource } from './types.ts';

/** Fake steps: each records that it ran, and fails when listed in `failing`. */
function fakeSteps(failing: CaptureSource[], ran: CaptureSource[]): Record<CaptureSource, CaptureStep> {
  const step = (source: CaptureSource, width: number): CaptureStep => async () => {
    ran.push(source);
    if (failing.includes(source)) throw new Error(`${source} failed`);
    return { blob: new Blob([source]), width, height: 1, timestamp: 1.5 };
  };
  return { canvas: step('canvas', 1), wasm: step('wasm', 2), server: step('server', 3), thumbnail: step('thumbnail', 4) };
}

describe('the capture chain', () => {
  it('starts at the canvas and stops at the first step that works', async () => {
    const ran: CaptureSource[] = [];
    const frame = await runChain(fakeSteps([], ran));
    expect(frame).toMatchObject({ source: 'canvas', width: 1 });
    expect(ran).toEqual(['canvas']);
  });

  it('tries each next step only when the one before failed, and says which one produced the frame', async () => {
    const ran: CaptureSource[] = [];
    const failures: StepFailure[] = [];
    const frame = await runChain(fakeSteps(['canvas', 'wasm'], ran), undefined, undefined, (f) => failures.push(f));
    expect(frame).toMatchObject({ source: 'server', width: 3 });
    expect(ran).toEqual(['canvas', 'wasm', 'server']);
    expect(failures.map((f) => f.source)).toEqual(['canvas', 'wasm']);
  });

  it('starts where it is forced to, and still continues after a forced step that fails', async () => {
    expect(chainFrom('wasm')).toEqual(['wasm', 'server', 'thumbnail']);
    expect(chainFrom('server')).toEqual(['server', 'thumbnail']);
    expect(chainFrom('canvas')).toEqual(['canvas', 'wasm', 'server', 'thumbnail']);
    const ran: CaptureSource[] = [];
    expect(await runChain(fakeSteps([], ran), 'server')).toMatchObject({ source: 'server' });
    expect(ran).toEqual(['server']);
    const ran2: CaptureSource[] = [];
    expect(await runChain(fakeSteps(['wasm', 'server'], ran2), 'wasm')).toMatchObject({ source: 'thumbnail' });
    expect(ran2).toEqual(['wasm', 'server', 'thumbnail']);
  });

  it('fails with the spec message, keeping each step failure, when every step fails', async () => {
    const ran: CaptureSource[] = [];
    const err = await runChain(fakeSteps(['canvas', 'wasm', 'server', 'thumbnail'], ran)).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(CAPTURE_FAILED);
    expect(((err as Error).cause as StepFailure[]).map((f) => f.source)).toEqual(['canvas', 'wasm', 'server', 'thumbnail']);
  });

  it('stops at once when the request is cancelled, with the reason', async () => {
    const controller = new AbortController();
    const ran: CaptureSource[] = [];
    const steps = fakeSteps(['canvas'], ran);
    const canvas = steps.canvas;
    steps.canvas = async () => {
      controller.abort(new DOMException('gone', 'AbortError'));
      return canvas();
    };
    const err = await runChain(steps, undefined, controller.signal).catch((e: Error) => e);
    expect((err as DOMException).name).toBe('AbortError');
    expect(ran).toEqual(['canvas']);
    await expect(runChain(fakeSteps([], []), 'wasm', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('timeInsideFrame', () => {
  it('moves a presented frame time a millisecond into the frame, and a player time only off a frame start', () => {
    expect(timeInsideFrame(37 / 30, true)).toBeCloseTo(37 / 30 + 0.001, 9);
    // Still inside frame 37 at every common rate, and never in frame 38.
    for (const fps of [24, 25, 30, 60, 120]) {
      const t = timeInsideFrame(37 / fps, true);
      expect(Math.floor(t * fps)).toBe(37);
    }
    expect(timeInsideFrame(1.25, false)).toBeCloseTo(1.25, 4);
    expect(timeInsideFrame(-0.01, false)).toBeGreaterThanOrEqual(0);
  });
});
