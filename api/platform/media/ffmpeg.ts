/**
 * Finds the ffmpeg and ffprobe binaries: FFMPEG_PATH / FFPROBE_PATH, else the system's,
 * else the static builds shipped inside npm packages, so a fresh machine needs no apt.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

async function works(bin: string): Promise<boolean> {
  try {
    await run(bin, ['-version'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

function shipped(pkg: string): string | null {
  try {
    return (require(pkg) as { path: string }).path;
  } catch {
    return null;
  }
}

export class FfmpegNotFoundError extends Error {
  override name = 'FfmpegNotFoundError';
}

async function locate(name: 'ffmpeg' | 'ffprobe', configured: string | null, pkg: string): Promise<string> {
  const candidates = configured ? [configured] : [onPath(name), shipped(pkg)];
  for (const c of candidates) if (c && (await works(c))) return c;
  throw new FfmpegNotFoundError(
    configured
      ? `${name} at ${configured} (from ${name.toUpperCase()}_PATH) does not run`
      : `${name} was found neither on PATH nor in ${pkg}; install it or set ${name.toUpperCase()}_PATH`,
  );
}

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

export async function findMediaTools(config: { ffmpegPath: string | null; ffprobePath: string | null }): Promise<MediaTools> {
  return {
    ffmpeg: await locate('ffmpeg', config.ffmpegPath, '@ffmpeg-installer/ffmpeg'),
    ffprobe: await locate('ffprobe', config.ffprobePath, '@ffprobe-installer/ffprobe'),
  };
}

/** Runs ffmpeg with an argument list (never a shell) and rejects with its stderr tail on failure. */
export function runFfmpeg(bin: string, args: string[], timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg failed (${signal ?? code}): ${stderr.trim()}`));
    });
  });
}

export interface ProbeResult {
  durationMs: number | null;
  width: number | null;
  height: number | null;
  formatName: string;
  videoCodec: string | null;
  audioCodec: string | null;
  frameRate: number | null;
  colorSpace: string | null;
  /** 'pc' for a full-range stream (phones' yuvj420p), else 'tv' (limited range, the default). */
  colorRange: 'tv' | 'pc';
  /** The input's start time in seconds (a WebM with Opus audio starts at 0.007), 0 when unknown. */
  startTime: number;
}

export async function probe(bin: string, file: string): Promise<ProbeResult> {
  const { stdout } = await run(
    bin,
    ['-v', 'error', '-protocol_whitelist', 'file', '-show_entries', 'stream=codec_type,codec_name,width,height,avg_frame_rate,color_space,color_range,pix_fmt:format=duration,format_name,start_time', '-of', 'json', file],
    { timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
  );
  const data = JSON.parse(stdout) as {
    streams?: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number; avg_frame_rate?: string; color_space?: string; color_range?: string; pix_fmt?: string }>;
    format?: { duration?: string; format_name?: string; start_time?: string };
  };
  const video = data.streams?.find((s) => s.codec_type === 'video');
  const audio = data.streams?.find((s) => s.codec_type === 'audio');
  const d = Number(data.format?.duration);
  const [num, den] = (video?.avg_frame_rate ?? '').split('/').map(Number);
  return {
    durationMs: Number.isFinite(d) && d > 0 ? Math.round(d * 1000) : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    formatName: data.format?.format_name ?? '',
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    frameRate: num && den ? num / den : null,
    colorSpace: video?.color_space ?? null,
    colorRange: video?.color_range === 'pc' || video?.pix_fmt?.startsWith('yuvj') ? 'pc' : 'tv',
    startTime: Number.isFinite(Number(data.format?.start_time)) ? Number(data.format!.start_time) : 0,
  };
}

/**
 * The presentation times in seconds (as stored, the times -copyts keeps) of the first video
 * stream's packets from the keyframe at or before `from` until the first packet at or after `to`
 * (or the end, when `to` is null), in the order they are read. Only packets are read, nothing is decoded.
 */
export async function packetTimes(bin: string, file: string, from: number, to: number | null): Promise<number[]> {
  const { stdout } = await run(
    bin,
    ['-v', 'error', '-protocol_whitelist', 'file', '-select_streams', 'v:0', '-read_intervals', `${Math.max(0, from).toFixed(6)}%${to === null ? '' : to.toFixed(6)}`,
      '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file],
    { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout.split('\n').map((l) => Number.parseFloat(l)).filter((t) => Number.isFinite(t));
}
