/**
 * The server's frame capture, the last resort of the capture chain: the frame a viewer sees at
 * a media time, from the stored file alone (ffmpeg may open local files only), at the video's
 * own resolution, upright, with the colours a browser shows (JPEG without chroma subsampling, so
 * colour edges survive): the stream's colour tags are
 * honoured and, like chromium, an untagged HD stream is read as BT.709.
 */
import { spawn } from 'node:child_process';
import type { ProbeResult } from '../../platform/media/ffmpeg.ts';

export interface CaptureOptions {
  ffmpeg: string;
  file: string;
  /** Media time in seconds, as the player reports it. */
  time: number;
  /** JPEG quality 1..100. */
  quality: number;
  info: Pick<ProbeResult, 'frameRate' | 'height'> & { colorSpace?: string | null };
  timeoutMs?: number;
}

/** ffmpeg's -q:v for MJPEG runs 2 (best) .. 31 (worst). */
function mjpegScale(quality: number): number {
  return Math.max(2, Math.min(31, Math.round(31 - (quality / 100) * 29)));
}

export function captureArgs(o: CaptureOptions): string[] {
  const fps = o.info.frameRate && o.info.frameRate > 0 ? o.info.frameRate : 30;
  const frame = 1 / fps;
  // Decode from a little before the time and keep the frame on screen at that time: the one
  // whose display interval [pts, pts + frame) contains it.
  const seek = Math.max(0, o.time - 1);
  const matrix = o.info.colorSpace && /^(bt709|bt470bg|smpte170m|bt2020nc)$/.test(o.info.colorSpace)
    ? (o.info.colorSpace === 'bt709' ? 'bt709' : o.info.colorSpace === 'bt2020nc' ? 'bt2020' : 'bt601')
    : (o.info.height ?? 0) >= 720 ? 'bt709' : 'bt601';
  const t = o.time.toFixed(6);
  return [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    '-protocol_whitelist', 'file',
    '-ss', seek.toFixed(6), '-copyts', '-i', o.file,
    '-vf', `select='lte(t\\,${t})*gt(t+${frame.toFixed(6)}\\,${t})',scale=in_color_matrix=${matrix}:in_range=tv:out_color_matrix=bt601:out_range=pc,format=yuvj444p`,
    '-frames:v', '1', '-q:v', String(mjpegScale(o.quality)), '-f', 'image2pipe', '-vcodec', 'mjpeg', 'pipe:1',
  ];
}

export class CaptureFailed extends Error {
  override name = 'CaptureFailed';
}

export function captureFrame(o: CaptureOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(o.ffmpeg, captureArgs(o), { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 25_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const jpeg = Buffer.concat(out);
      if (code === 0 && jpeg.length > 0) resolve(jpeg);
      else reject(new CaptureFailed(err.trim() || `no frame at ${o.time} s`));
    });
  });
}
