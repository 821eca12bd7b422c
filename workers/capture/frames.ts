/**
 * Pure parts of frame extraction with ffmpeg.wasm: reading the stream facts ffmpeg prints for an
 * input, the arguments that decode exactly the frame a viewer sees at a media time, and the
 * presentation time ffmpeg reports for the frame it kept.
 */

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

/** The frame rate assumed for a stream that declares none. */
export const FALLBACK_FPS = 30;

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
 * ffmpeg arguments that decode the frame on screen at `target` (a time inside the frame on screen) as raw
 * RGBA at its display size, upright (ffmpeg turns rotated clips itself), converted with the
 * stream's own colour matrix and range as a browser converts it. Decoding starts a few frames
 * before the target (the demuxer goes back to the keyframe before that), and of the frames that
 * follow, the one kept is the frame whose display interval [pts, pts + 1/fps) holds the target:
 * `ffmpeg -ss t` alone would return the first frame at or after t instead. The output file is
 * overwritten from its start and not truncated.
 */
export function extractArgs(input: string, output: string, info: VideoStreamInfo, target: number): string[] {
  const frame = 1 / (info.fps ?? FALLBACK_FPS);
  const seek = Math.max(0, target - 3 * frame);
  const t = target.toFixed(6);
  const select = `select='lte(t\\,${t})*gt(t+${frame.toFixed(6)}\\,${t})'`;
  const colour = `scale=in_color_matrix=${info.matrix}:in_range=${info.range}:out_range=pc,format=rgba`;
  return [
    '-hide_banner', '-loglevel', 'info',
    '-ss', seek.toFixed(6), '-copyts', '-i', input,
    '-an', '-sn', '-dn',
    '-vf', `${select},showinfo,${colour}`,
    // The output file is kept between captures at its full size (see the capture worker): written
    // over in place rather than truncated, so its storage is not grown again chunk by chunk.
    '-frames:v', '1', '-f', 'rawvideo', '-truncate', '0', output,
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
