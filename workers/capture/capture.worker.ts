/**
 * The capture worker: ffmpeg.wasm (the single-thread core, run directly in this module worker,
 * so there is no second worker to start) decodes the exact frame a viewer sees, and an
 * OffscreenCanvas encodes it as JPEG. One video's bytes stay in ffmpeg's memory file system
 * between captures. Calls run one at a time; an aborted call ends the whole worker (a running
 * ffmpeg cannot be interrupted).
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
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
  };
}
type CreateCore = (options: { mainScriptUrlOrBlob: string }) => Promise<FFmpegCore>;

const EXEC_TIMEOUT_MS = 20_000;
const OUTPUT = 'frame.rgba';

let core: FFmpegCore | null = null;
let log: string[] = [];
let video: { key: string; path: string; info: VideoStreamInfo } | null = null;

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

async function encodeJpeg(rgba: Uint8Array, width: number, height: number, quality: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const pixels = new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, width * height * 4);
  canvas.getContext('2d')!.putImageData(new ImageData(pixels, width, height), 0, 0);
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
    remove(OUTPUT);
    const { code, lines } = run(extractArgs(video.path, OUTPUT, video.info, target));
    let rgba: Uint8Array;
    try {
      rgba = core.FS.readFile(OUTPUT);
    } catch {
      throw new Error(`ffmpeg.wasm decoded no frame at ${target} s (exit ${code}): ${lines.slice(-3).join(' | ')}`);
    }
    remove(OUTPUT);
    if (rgba.length !== width * height * 4) throw new Error(`ffmpeg.wasm gave ${rgba.length} bytes for a ${width}x${height} frame`);
    const blob = await encodeJpeg(rgba, width, height, quality);
    return { blob, width, height, timestamp: parseShownPts(lines) };
  },
};

Comlink.expose(api);
