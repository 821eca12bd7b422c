/**
 * The capture worker: ffmpeg.wasm (the single-thread core, run directly in this module worker,
 * so there is no second worker to start) decodes the exact frame a viewer sees, and an
 * OffscreenCanvas encodes it as JPEG. One video's bytes stay in ffmpeg's memory file system
 * between captures. Calls run one at a time; an aborted call ends the whole worker (a running
 * ffmpeg cannot be interrupted).
 *
 * Later captures of the same video reuse their memory: the raw frame file keeps its full size
 * (ffmpeg writes over it; a new file would grow by an eighth at a time, copied at each step), the
 * frame is read into the same buffer and encoded from the same canvas. Fresh memory is what a
 * capture would otherwise spend most on after the decoding itself.
 */
import * as Comlink from 'comlink';
import type { CaptureWorkerApi, WasmFrame } from './api.ts';
import { displaySize, extractArgs, parseProbeLog, parseShownPts, type VideoStreamInfo } from './frames.ts';

/** The part of @ffmpeg/core this worker uses. */
interface FFmpegCore {
  exec(...args: string[]): number;
  setLogger(logger: (entry: { type: string; message: string }) => void): void;
  setTimeout(ms: number): void;
  reset(): void;
  FS: {
    writeFile(path: string, data: Uint8Array): void;
    unlink(path: string): void;
    stat(path: string): { size: number };
    open(path: string, flags: string): FFmpegStream;
    read(stream: FFmpegStream, buffer: Uint8Array, offset: number, length: number, position: number): number;
    close(stream: FFmpegStream): void;
  };
}
type FFmpegStream = { readonly fd: number };
type CreateCore = (options: { mainScriptUrlOrBlob: string }) => Promise<FFmpegCore>;

const EXEC_TIMEOUT_MS = 20_000;
const OUTPUT = 'frame.rgba';

let core: FFmpegCore | null = null;
let log: string[] = [];
let video: { key: string; path: string; info: VideoStreamInfo } | null = null;
/** The last frame read, and the canvas it was encoded on: reused while the frame size stays. */
let pixels: Uint8ClampedArray<ArrayBuffer> | null = null;
let canvas: OffscreenCanvas | null = null;

function run(args: string[]): { code: number; lines: string[] } {
  if (!core) throw new Error('ffmpeg.wasm is not loaded');
  log = [];
  core.setTimeout(EXEC_TIMEOUT_MS);
  const code = core.exec(...args);
  core.reset();
  return { code, lines: log };
}

function remove(path: string): void {
  try {
    core?.FS.unlink(path);
  } catch {
    // Not there: nothing to remove.
  }
}

/** Makes the output file `bytes` long (its content is written over by each capture). */
function sizeOutput(bytes: number): void {
  let size = -1;
  try {
    size = core!.FS.stat(OUTPUT).size;
  } catch {
    // Not there yet.
  }
  if (size !== bytes) {
    remove(OUTPUT);
    core!.FS.writeFile(OUTPUT, new Uint8Array(bytes));
  }
}

/** The output file's first `bytes` bytes, read into the reused pixel buffer. */
function readOutput(bytes: number): Uint8ClampedArray<ArrayBuffer> {
  if (pixels?.length !== bytes) pixels = new Uint8ClampedArray(bytes);
  const stream = core!.FS.open(OUTPUT, 'r');
  try {
    const read = core!.FS.read(stream, new Uint8Array(pixels.buffer), 0, bytes, 0);
    if (read !== bytes) throw new Error(`ffmpeg.wasm left ${read} bytes for a ${bytes}-byte frame`);
  } finally {
    core!.FS.close(stream);
  }
  return pixels;
}

async function encodeJpeg(rgba: Uint8ClampedArray<ArrayBuffer>, width: number, height: number, quality: number): Promise<Blob> {
  if (!canvas || canvas.width !== width || canvas.height !== height) canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')!.putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas.convertToBlob({ type: 'image/jpeg', quality });
}

const api: CaptureWorkerApi = {
  async load(coreURL, wasmURL) {
    if (core) return;
    const { default: createCore } = (await import(/* @vite-ignore */ coreURL)) as { default: CreateCore };
    // The core finds its wasm through this address: the fragment names the file to fetch.
    core = await createCore({ mainScriptUrlOrBlob: `${coreURL}#${btoa(JSON.stringify({ wasmURL, workerURL: '' }))}` });
    core.setLogger(({ message }) => log.push(message));
  },

  has(key) {
    return video?.key === key;
  },

  async put(key, bytes) {
    if (!core) throw new Error('ffmpeg.wasm is not loaded');
    if (video) remove(video.path);
    video = null;
    remove(OUTPUT);
    pixels = null;
    canvas = null;
    const path = `input${/\.\w{2,4}$/.exec(new URL(key).pathname)?.[0] ?? ''}`;
    core.FS.writeFile(path, new Uint8Array(bytes));
    const info = parseProbeLog(run(['-hide_banner', '-i', path]).lines);
    if (!info) {
      remove(path);
      throw new Error('ffmpeg.wasm found no video stream');
    }
    video = { key, path, info };
  },

  async extract(key, target, quality): Promise<WasmFrame> {
    if (!core || !video || video.key !== key) throw new Error('The video is not loaded in the capture worker');
    const { width, height } = displaySize(video.info);
    const bytes = width * height * 4;
    sizeOutput(bytes);
    const { code, lines } = run(extractArgs(video.path, OUTPUT, video.info, target));
    // The file is there from the last capture: the frame was written when ffmpeg kept one (showinfo
    // logs it) and ended well.
    const timestamp = parseShownPts(lines);
    if (code !== 0 || timestamp === null) throw new Error(`ffmpeg.wasm decoded no frame at ${target} s (exit ${code}): ${lines.slice(-3).join(' | ')}`);
    const blob = await encodeJpeg(readOutput(bytes), width, height, quality);
    return { blob, width, height, timestamp };
  },
};

Comlink.expose(api);
