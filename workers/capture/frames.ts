/**
 * Pure parts of frame extraction with ffmpeg.wasm: reading the stream facts ffmpeg prints for an
 * input and the presentation times of its frames, the arguments that decode exactly the frame a
 * viewer sees at a media time (chosen from those times, see shared/media/frameAt.ts), and the
 * presentation time ffmpeg reports for the frame it kept.
 */
import { sortedTimes, type ChosenFrame } from '../../shared/media/frameAt.ts';

export interface VideoStreamInfo {
  /** Coded size, before the display rotation. */
  width: number;
  height: number;
  /** Frames per second, when the stream declares it. */
  fps: number | null;
  /** Display rotation in degrees as ffmpeg prints it (a phone's portrait clip: 90 or -90). */
  rotation: number;
  /** The YUV matrix the stream is tagged with, or the one a browser assumes for an untagged stream. */
  matrix: 'bt709' | 'bt601' | 'bt2020';
  range: 'tv' | 'pc';
}

const MATRICES: Record<string, VideoStreamInfo['matrix']> = {
  bt709: 'bt709',
  bt470bg: 'bt601',
  smpte170m: 'bt601',
  bt2020nc: 'bt2020',
  bt2020c: 'bt2020',
};

function rate(line: string, unit: 'fps' | 'tbr'): number | null {
  const m = new RegExp(`, ([\\d.]+)(k?) ${unit}\\b`).exec(line);
  if (!m) return null;
  const value = Number(m[1]) * (m[2] ? 1000 : 1);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * Reads the first video stream from what `ffmpeg -i` logs, for example
 * `Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(tv, bt709, progressive), 1280x720 [SAR 1:1 DAR 16:9], 30 fps, 30 tbr`
 * followed by `displaymatrix: rotation of -90.00 degrees` for a rotated clip.
 */
export function parseProbeLog(lines: readonly string[]): VideoStreamInfo | null {
  const at = lines.findIndex((l) => /Stream #\d+:\d+.*: Video: /.test(l));
  if (at < 0) return null;
  const line = lines[at]!;
  const video = line.slice(line.indexOf(': Video: '));
  const size = /, (\d{2,5})x(\d{2,5})\b/.exec(video);
  if (!size) return null;
  const height = Number(size[2]);
  const pix = /, (yuvj?[0-9a-z]+)(?:\(([^)]*)\))?[,\s]/.exec(video);
  const tags = (pix?.[2] ?? '').split(',').map((s) => s.trim());
  const range: VideoStreamInfo['range'] = tags.includes('pc') || pix?.[1]?.startsWith('yuvj') ? 'pc' : 'tv';
  // ffmpeg prints the colour space, or "space/primaries/transfer" when they differ.
  const space = tags.map((t) => t.split('/')[0]!).find((t) => t in MATRICES);
  const matrix = space ? MATRICES[space]! : height >= 720 ? 'bt709' : 'bt601';
  let rotation = 0;
  // Side data belongs to the stream line above it, until the next stream starts.
  for (const l of lines.slice(at + 1)) {
    if (/Stream #\d+:\d+/.test(l)) break;
    const m = /displaymatrix: rotation of (-?[\d.]+) degrees/.exec(l);
    if (m) rotation = Number(m[1]);
  }
  return { width: Number(size[1]), height, fps: rate(video, 'fps') ?? rate(video, 'tbr'), rotation, matrix, range };
}

/** The size a viewer sees: a quarter-turned clip shows upright, its sides swapped. */
export function displaySize(info: VideoStreamInfo): { width: number; height: number } {
  const quarter = Math.abs(Math.round(info.rotation / 90)) % 2 === 1;
  return quarter ? { width: info.height, height: info.width } : { width: info.width, height: info.height };
}

/**
 * ffmpeg arguments that read the input once and list its first video stream's packets (stream
 * copy, nothing decoded) to `output` in framecrc form, with the stream's own timestamps
 * (-copyts: the times a browser's currentTime counts in). The log of the same run describes the
 * input (see parseProbeLog and parseStartTime).
 */
export function listArgs(input: string, output: string): string[] {
  return [
    '-hide_banner', '-loglevel', 'info',
    '-copyts', '-i', input,
    '-map', '0:v:0', '-c', 'copy', '-f', 'framecrc', '-y', output,
  ];
}

/**
 * The presentation times in seconds, ascending and without repeats, of the packets a framecrc
 * listing holds (`#tb 0: 1/15360` gives the time base; each packet line reads
 * `stream, dts, pts, duration, size, checksum`).
 */
export function parseFrameList(text: string): number[] {
  const tb = /^#tb 0: (\d+)\/(\d+)/m.exec(text);
  if (!tb) return [];
  const unit = Number(tb[1]) / Number(tb[2]);
  const times: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^0,\s*-?\d+,\s*(-?\d+),/.exec(line);
    if (m) times.push(Number(m[1]) * unit);
  }
  return sortedTimes(times);
}

/** The input's start time in seconds from the `Duration: ..., start: 0.007000, ...` line ffmpeg logs (0 without one). */
export function parseStartTime(lines: readonly string[]): number {
  for (const l of lines) {
    const m = /^\s*Duration: .*\bstart: (-?[\d.]+)/.exec(l);
    if (m) return Number(m[1]);
  }
  return 0;
}

/**
 * Where ffmpeg's input seek goes to decode `frame`: a little before the frame's own time. With
 * -copyts, ffmpeg drops decoded frames before the seek time plus the input's start time, so that
 * start is taken off; the demuxer itself goes back to the keyframe before. A frame that started
 * long before the requested time (a long frame of a variable-rate clip) is found all the same:
 * the seek follows the frame, not the requested time.
 */
export function seekBefore(frame: ChosenFrame, start: number): number {
  return Math.max(0, frame.from - start - 0.05);
}

/** The select filter that keeps `frame` and nothing else, by its presentation time. */
export function selectFrame(frame: ChosenFrame): string {
  const from = `gte(t\\,${frame.from.toFixed(6)})`;
  return frame.to === null ? `select='${from}'` : `select='${from}*lt(t\\,${frame.to.toFixed(6)})'`;
}

/**
 * ffmpeg arguments that decode `frame` (chosen from the stream's own times, see frameAt) as raw
 * RGBA at its display size, upright (ffmpeg turns rotated clips itself), converted with the
 * stream's own colour matrix and range as a browser converts it. The output file is overwritten
 * from its start and not truncated.
 */
export function extractArgs(input: string, output: string, info: VideoStreamInfo, frame: ChosenFrame, start: number): string[] {
  const colour = `scale=in_color_matrix=${info.matrix}:in_range=${info.range}:out_range=pc,format=rgba`;
  return [
    '-hide_banner', '-loglevel', 'info',
    '-ss', seekBefore(frame, start).toFixed(6), '-copyts', '-i', input,
    '-an', '-sn', '-dn',
    '-vf', `${selectFrame(frame)},showinfo,${colour}`,
    // The output file is kept between captures at its full size (see the capture worker): written
    // over in place rather than truncated, so its storage is not grown again chunk by chunk.
    '-frames:v', '1', '-f', 'rawvideo', '-truncate', '0', '-y', output,
  ];
}

/** The presentation time of the frame kept, from the showinfo line ffmpeg logs for it. */
export function parseShownPts(lines: readonly string[]): number | null {
  for (const l of lines) {
    const m = /Parsed_showinfo.*\bpts_time:\s*(-?[\d.]+)/.exec(l);
    if (m) return Number(m[1]);
  }
  return null;
}
