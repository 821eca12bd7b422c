/**
 * The capture worker: ffmpeg.wasm, driven through @ffmpeg/ffmpeg's FFmpeg class (which runs the
 * single-thread core in a worker of its own, started from this one), decodes the exact frame a
 * viewer sees, and an OffscreenCanvas here encodes it as lossless PNG (and a JPEG for the slot). One video's bytes, and the
 * presentation times of its frames, stay with ffmpeg between captures. Calls run one at a time.
 * A call that runs past its time limit ends ffmpeg's worker (FFmpeg.terminate()); an aborted
 * call ends this whole worker, and ffmpeg's with it.
 *
 * The frame is chosen from the video's own presentation times (listed once per video, without
 * decoding), never from its frame rate: on a variable-rate clip, frames differ in length.
 *
 * Later captures of the same video reuse what they can: the raw frame file keeps its full size
 * (ffmpeg writes over it; a new file would grow by an eighth at a time, copied at each step), and
 * the frame is encoded from the same canvas.
 */
import * as Comlink from 'comlink';
import { FFmpeg } from '@ffmpeg/ffmpeg';
import { frameAt } from '../../shared/media/frameAt.ts';
import { encodeStoredFrame } from '../frame/stored-frame.ts';
import type { CaptureWorkerApi, WasmFrame } from './api.ts';
import { displaySize, extractArgs, listArgs, parseFrameList, parseProbeLog, parseShownPts, parseStartTime, type VideoStreamInfo } from './frames.ts';

const EXEC_TIMEOUT_MS = 20_000;
const OUTPUT = 'frame.rgba';
const LIST = 'frames.crc';

let ffmpeg: FFmpeg | null = null;
let log: string[] = [];
let video: { key: string; path: string; info: VideoStreamInfo; start: number; times: number[] } | null = null;
let outputBytes = -1;
/** The canvas the last frame was encoded on: reused while the frame size stays. */
let canvas: OffscreenCanvas | null = null;

function loaded(): FFmpeg {
  if (!ffmpeg) throw new Error('ffmpeg.wasm is not loaded');
  return ffmpeg;
}

async function run(args: string[]): Promise<{ code: number; lines: string[] }> {
  const ff = loaded();
  log = [];
  const started = performance.now();
  const code = await ff.exec(args, EXEC_TIMEOUT_MS);
  const lines = log;
  // The core gives up after the time limit (exit code 1), possibly in the middle of a decode:
  // its state is not trusted afterwards, so its worker ends and the next call loads afresh.
  if (code !== 0 && performance.now() - started >= EXEC_TIMEOUT_MS) stop();
  return { code, lines };
}

function stop(): void {
  ffmpeg?.terminate();
  ffmpeg = null;
  video = null;
  outputBytes = -1;
  canvas = null;
}

async function remove(path: string): Promise<void> {
  try {
    await loaded().deleteFile(path);
  } catch {
    // Not there: nothing to remove.
  }
}

/** Makes the output file `bytes` long (its content is written over by each capture). */
async function sizeOutput(bytes: number): Promise<void> {
  if (outputBytes === bytes) return;
  await remove(OUTPUT);
  await loaded().writeFile(OUTPUT, new Uint8Array(bytes));
  outputBytes = bytes;
}

/** The frame kept losslessly (what products are made from) and its JPEG preview for the slot. */
async function encodeFrame(rgba: Uint8Array, width: number, height: number, quality: number): Promise<{ blob: Blob; preview: Blob }> {
  if (!canvas || canvas.width !== width || canvas.height !== height) canvas = new OffscreenCanvas(width, height);
  const pixels = new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, width * height * 4);
  canvas.getContext('2d')!.putImageData(new ImageData(pixels, width, height), 0, 0);
  const [blob, preview] = await Promise.all([encodeStoredFrame(canvas), canvas.convertToBlob({ type: 'image/jpeg', quality })]);
  return { blob, preview };
}

const api: CaptureWorkerApi = {
  async load(coreURL, wasmURL, classWorkerURL) {
    if (ffmpeg) return;
    const ff = new FFmpeg();
    ff.on('log', ({ message }) => log.push(message));
    try {
      await ff.load({ coreURL, wasmURL, classWorkerURL });
    } catch (err) {
      ff.terminate();
      throw err;
    }
    ffmpeg = ff;
  },

  has(key) {
    return video?.key === key;
  },

  async put(key, bytes) {
    const ff = loaded();
    if (video) await remove(video.path);
    video = null;
    await remove(OUTPUT);
    outputBytes = -1;
    canvas = null;
    const path = `input${/\.\w{2,4}$/.exec(new URL(key).pathname)?.[0] ?? ''}`;
    await ff.writeFile(path, new Uint8Array(bytes));
    // One pass over the file, copying packets without decoding them: the stream's description in
    // the log, and every frame's presentation time in the listing.
    const { lines } = await run(listArgs(path, LIST));
    const info = parseProbeLog(lines);
    let times: number[] = [];
    try {
      times = parseFrameList((await ff.readFile(LIST, 'utf8')) as string);
    } catch {
      // No listing: no video stream to list.
    }
    await remove(LIST);
    if (!info || times.length === 0) {
      await remove(path);
      throw new Error('ffmpeg.wasm found no video stream');
    }
    video = { key, path, info, start: parseStartTime(lines), times };
  },

  async extract(key, target, quality): Promise<WasmFrame> {
    if (!ffmpeg || !video || video.key !== key) throw new Error('The video is not loaded in the capture worker');
    const { width, height } = displaySize(video.info);
    const bytes = width * height * 4;
    const frame = frameAt(video.times, target)!;
    await sizeOutput(bytes);
    const { code, lines } = await run(extractArgs(video.path, OUTPUT, video.info, frame, video.start));
    // The file is there from the last capture: the frame was written when ffmpeg kept one (showinfo
    // logs it) and ended well.
    const timestamp = parseShownPts(lines);
    if (code !== 0 || timestamp === null) throw new Error(`ffmpeg.wasm decoded no frame at ${target} s (exit ${code}): ${lines.slice(-3).join(' | ')}`);
    const rgba = (await loaded().readFile(OUTPUT)) as Uint8Array;
    if (rgba.length < bytes) throw new Error(`ffmpeg.wasm left ${rgba.length} bytes for a ${bytes}-byte frame`);
    const { blob, preview } = await encodeFrame(rgba, width, height, quality);
    return { blob, preview, width, height, timestamp };
  },
};

Comlink.expose(api);
