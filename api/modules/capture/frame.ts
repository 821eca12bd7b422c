/**
 * The server's frame capture, the last resort of the capture chain: the frame a viewer sees at
 * a media time, from the stored file alone (ffmpeg may open local files only), at the video's
 * own resolution, upright, with the colours a browser shows (JPEG without chroma subsampling, so
 * colour edges survive): the stream's colour tags are
 * honoured and, like chromium, an untagged HD stream is read as BT.709.
 *
 * The frame is the last one whose presentation time is at or before the requested time, chosen
 * from the stream's own packet times near it (ffprobe reads packets, decodes nothing), never from
 * the average frame rate: on a variable-rate clip, frames differ in length. ffmpeg then decodes
 * that frame alone, found by its time (-copyts keeps the stored times, which a player's
 * currentTime counts in).
 */
import { spawn } from 'node:child_process';
import { FRAME_TIME_EPSILON, frameAt, sortedTimes, type ChosenFrame } from '../../../shared/media/frameAt.ts';
import { packetTimes, type ProbeResult } from '../../platform/media/ffmpeg.ts';

export interface CaptureOptions {
  ffmpeg: string;
  ffprobe: string;
  file: string;
  /** Media time in seconds, as the player reports it. */
  time: number;
  /** JPEG quality 1..100. */
  quality: number;
  info: Pick<ProbeResult, 'height'> & { colorSpace?: string | null; colorRange?: 'tv' | 'pc'; startTime?: number };
  timeoutMs?: number;
}

/** How far either side of the requested time the first packet listing reads. */
const LISTING_WINDOW_S = 2;

/** ffmpeg's -q:v for MJPEG runs 2 (best) .. 31 (worst). */
function mjpegScale(quality: number): number {
  return Math.max(2, Math.min(31, Math.round(31 - (quality / 100) * 29)));
}

/** Packet times read from `from` to `to` seconds (to the end of the file when `to` is null). */
export type ListPackets = (from: number, to: number | null) => Promise<number[]>;

/**
 * The frame on screen at `time`, from packet times listed near it. A listing starts at the
 * keyframe before its start, so a long frame that began well before the time is in it. When it
 * holds no frame at or before the time (the time is before the first frame, or the demuxer landed
 * past it), it is read again from the file's start; when it holds no frame after the time
 * (reordered frames might still follow, or the time is past the last frame), it is read again to
 * the file's end.
 */
export async function chooseFrame(list: ListPackets, time: number): Promise<ChosenFrame | null> {
  let from = Math.max(0, time - LISTING_WINDOW_S);
  let to: number | null = time + LISTING_WINDOW_S;
  for (;;) {
    const times = sortedTimes(await list(from, to));
    const started = times.length > 0 && times[0]! <= time + FRAME_TIME_EPSILON;
    const ended = times.length > 0 && times[times.length - 1]! > time + FRAME_TIME_EPSILON;
    if ((started || from === 0) && (ended || to === null)) return frameAt(times, time);
    if (!started) from = 0;
    if (!ended) to = null;
  }
}

export function captureArgs(o: CaptureOptions, frame: ChosenFrame): string[] {
  // Decode from just before the frame's own time (ffmpeg goes back to the keyframe before it, and,
  // with -copyts, drops frames before the seek time plus the input's start time).
  const seek = Math.max(0, frame.from - (o.info.startTime ?? 0) - 0.05);
  const matrix = o.info.colorSpace && /^(bt709|bt470bg|smpte170m|bt2020nc)$/.test(o.info.colorSpace)
    ? (o.info.colorSpace === 'bt709' ? 'bt709' : o.info.colorSpace === 'bt2020nc' ? 'bt2020' : 'bt601')
    : (o.info.height ?? 0) >= 720 ? 'bt709' : 'bt601';
  const select = `gte(t\\,${frame.from.toFixed(6)})` + (frame.to === null ? '' : `*lt(t\\,${frame.to.toFixed(6)})`);
  return [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    '-protocol_whitelist', 'file',
    '-ss', seek.toFixed(6), '-copyts', '-i', o.file,
    // To RGB with the stream's matrix and range first, then to full-range BT.601 4:4:4 for the JPEG
    // encoder: one scale from BT.601 to BT.601 would skip the range expansion (SD frames came out
    // washed out, 30 dB), while going through RGB converts every stream the same way.
    '-vf', `select='${select}',scale=in_color_matrix=${matrix}:in_range=${o.info.colorRange ?? 'tv'},format=rgb24,` +
      'scale=out_color_matrix=bt601:out_range=pc,format=yuvj444p',
    '-frames:v', '1', '-q:v', String(mjpegScale(o.quality)), '-f', 'image2pipe', '-vcodec', 'mjpeg', 'pipe:1',
  ];
}

export class CaptureFailed extends Error {
  override name = 'CaptureFailed';
}

export async function captureFrame(o: CaptureOptions): Promise<Buffer> {
  const frame = await chooseFrame((from, to) => packetTimes(o.ffprobe, o.file, from, to), o.time);
  if (!frame) throw new CaptureFailed('the video has no frames');
  return new Promise((resolve, reject) => {
    const child = spawn(o.ffmpeg, captureArgs(o, frame), { stdio: ['ignore', 'pipe', 'pipe'] });
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
