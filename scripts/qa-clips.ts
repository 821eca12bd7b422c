/**
 * QA clips for frame-accuracy tests, made with ffmpeg into .cache/qa-clips (ignored; made once).
 * Every frame carries its own index as a 16-bit barcode in its top-left corner: 16 blocks of
 * 40x40 pixels, bit i (value 2^i) at x = 40 i, white for 1 and black for 0, over a moving test
 * pattern. readFrameIndex() reads it back from decoded pixels, so a test knows exactly which frame
 * it captured. Clips are tagged BT.709, as browsers expect for HD video.
 *
 * The picture is built in BT.709 YCbCr: its luma is ffmpeg's moving test pattern in grey (sharp
 * edges, a different picture every frame), its colour a saturated field that varies smoothly
 * across the frame and drifts over time. A capture is a JPEG at quality 0.9, which browsers
 * encode with colour at half resolution (4:2:0): over sharp colour edges that alone would cost
 * the exact frame some 13 dB of RGB PSNR, whereas smooth colour loses almost nothing to it. So
 * the tests can judge captures by RGB PSNR, which also catches colour read with the wrong matrix
 * or range, while every frame still differs from its neighbours in luma detail and barcode.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { findMediaTools, runFfmpeg } from '../api/platform/media/ffmpeg.ts';

const run = promisify(execFile);

export const BARCODE = { bits: 16, block: 40 } as const;

export interface QaClip {
  name: string;
  codec: 'h264' | 'vp9';
  width: number;
  height: number;
  fps: number;
  seconds: number;
  /** Display rotation in degrees, as phones record it. */
  rotate?: 90;
  /**
   * A variable frame rate: frames last 1, 2, 3 and 4 sixtieths of a second in turn (fps is then
   * the rate of that sixtieth), and frame VFR_LONG_FRAME lasts 34 sixtieths; `seconds` is the
   * clip's length in frames' time. Its frames' own times come from ffprobe (see frameTimes in
   * qa-frames.ts).
   */
  vfr?: true;
}

/** The long frame of the variable-rate clip, and how many frames that clip has. */
export const VFR_LONG_FRAME = 39;
export const VFR_FRAMES = 60;
/**
 * Each frame's time in sixtieths of a second: cycles of four frames lasting 1, 2, 3 and 4 (10 a
 * cycle), and 30 more from the frame after the long one.
 */
const VFR_PTS = `(floor(N/4)*10+if(eq(mod(N\\,4)\\,0)\\,0\\,if(eq(mod(N\\,4)\\,1)\\,1\\,if(eq(mod(N\\,4)\\,2)\\,3\\,6)))+30*gte(N\\,${VFR_LONG_FRAME + 1}))`;

export const QA_CLIPS: QaClip[] = [
  { name: 'h264-720p24.mp4', codec: 'h264', width: 1280, height: 720, fps: 24, seconds: 2 },
  { name: 'h264-720p25.mp4', codec: 'h264', width: 1280, height: 720, fps: 25, seconds: 2 },
  { name: 'h264-720p30.mp4', codec: 'h264', width: 1280, height: 720, fps: 30, seconds: 2 },
  { name: 'h264-720p60.mp4', codec: 'h264', width: 1280, height: 720, fps: 60, seconds: 2 },
  { name: 'h264-1080p30.mp4', codec: 'h264', width: 1920, height: 1080, fps: 30, seconds: 2 },
  { name: 'h264-1080p60.mp4', codec: 'h264', width: 1920, height: 1080, fps: 60, seconds: 2 },
  { name: 'vp9-720p30.webm', codec: 'vp9', width: 1280, height: 720, fps: 30, seconds: 2 },
  { name: 'vp9-1080p25.webm', codec: 'vp9', width: 1920, height: 1080, fps: 25, seconds: 2 },
  { name: 'vp9-720p60.webm', codec: 'vp9', width: 1280, height: 720, fps: 60, seconds: 2 },
  { name: 'h264-720p-vfr.mp4', codec: 'h264', width: 1280, height: 720, fps: 60, seconds: 3, vfr: true },
  { name: 'h264-portrait-rotated.mp4', codec: 'h264', width: 1280, height: 720, fps: 30, seconds: 2, rotate: 90 },
];

function filter(c: QaClip): string {
  const bar = `color=c=black:s=${BARCODE.bits * BARCODE.block}x${BARCODE.block}:r=${c.fps},format=yuv444p,` +
    `geq=lum='if(mod(floor(N/pow(2\\,floor(X/${BARCODE.block})))\\,2)\\,235\\,16)':cb=128:cr=128[bar]`;
  // Luma: the test pattern in grey, limited range, kept to the middle 60% of it (Y 60 to 191).
  const luma = `testsrc2=s=${c.width}x${c.height}:r=${c.fps},hue=s=0,scale=out_color_matrix=bt709:out_range=tv,format=yuv444p,` +
    `lutyuv=y='60+(val-16)*0.6'[luma]`;
  // Colour: Cb and Cr as slow waves across a 64x36 field (drifting with time), scaled up smoothly.
  // With that luma, +-24 keeps every pixel inside the RGB cube: nothing is clipped by one
  // decoder's YCbCr-to-RGB and not by another's.
  const colour = `color=c=gray:s=64x36:r=${c.fps},format=yuv444p,` +
    `geq=lum=128:cb='128+24*sin(2*PI*(X/W+T/4))':cr='128+24*cos(2*PI*(Y/H+X/(2*W)-T/5))',` +
    `scale=${c.width}x${c.height}:flags=bicubic,format=yuv444p[colour]`;
  // A variable-rate clip keeps its frames (and their barcodes) and gets new times for them; the
  // fine time base keeps those times exact through the encoder.
  const times = c.vfr ? `,settb=1/600,setpts='${VFR_PTS}/(${c.fps}*TB)'` : '';
  return `${bar};${luma};${colour};[luma][colour]mergeplanes=0x001112:yuv444p[picture];[picture][bar]overlay=0:0,format=yuv420p${times}[v]`;
}

export function qaClipArgs(c: QaClip, out: string): string[] {
  const codec = c.codec === 'h264'
    ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-g', String(c.fps), '-movflags', '+faststart']
    : ['-c:v', 'libvpx-vp9', '-b:v', '4M', '-deadline', 'realtime', '-cpu-used', '8', '-g', String(c.fps)];
  const length = c.vfr ? ['-frames:v', String(VFR_FRAMES), '-fps_mode', 'passthrough', '-enc_time_base:v', '1/600'] : ['-t', String(c.seconds)];
  return [
    '-y', '-filter_complex', filter(c), '-map', '[v]', ...length, ...codec,
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
    out,
  ];
}

/**
 * Where the clips are kept: a folder named after the recipe (every clip's ffmpeg arguments), so
 * clips made by an earlier recipe are never taken for these.
 */
export const QA_CLIPS_DIR = path.resolve(
  import.meta.dirname,
  '../.cache/qa-clips',
  createHash('sha256').update(JSON.stringify(QA_CLIPS.map((c) => [c, qaClipArgs(c, c.name)]))).digest('hex').slice(0, 12),
);

export async function makeQaClips(): Promise<string[]> {
  mkdirSync(QA_CLIPS_DIR, { recursive: true });
  const { ffmpeg, ffprobe } = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: process.env.FFPROBE_PATH ?? null });
  const made: string[] = [];
  for (const clip of QA_CLIPS) {
    const out = path.join(QA_CLIPS_DIR, clip.name);
    if (existsSync(out)) continue;
    // Named for this process: two test runs making the clips at once never write one file together.
    const tmp = `${out}.${process.pid}.tmp${path.extname(out)}`;
    await runFfmpeg(ffmpeg, qaClipArgs(clip, tmp), 300_000);
    if (clip.rotate) {
      // The display rotation goes in as container metadata on a stream copy, as a phone writes it.
      const rotated = `${out}.${process.pid}.rot${path.extname(out)}`;
      await runFfmpeg(ffmpeg, ['-y', '-i', tmp, '-c', 'copy', '-metadata:s:v:0', `rotate=${clip.rotate}`, rotated]);
      renameSync(rotated, tmp);
    }
    await checkQaClip(ffprobe, clip, tmp);
    renameSync(tmp, out);
    made.push(clip.name);
  }
  return made;
}

/**
 * Checks a made clip against its recipe with ffprobe: its frame count and rate, the display
 * rotation of a phone clip, and frames of genuinely different lengths in a variable-rate one.
 */
async function checkQaClip(ffprobe: string, clip: QaClip, file: string): Promise<void> {
  const { stdout } = await run(ffprobe, [
    '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,r_frame_rate:stream_side_data=rotation:packet=pts_time',
    '-of', 'json', file,
  ], { maxBuffer: 16 * 1024 * 1024 });
  const data = JSON.parse(stdout) as {
    streams: Array<{ codec_name: string; width: number; height: number; side_data_list?: Array<{ rotation?: number }> }>;
    packets: Array<{ pts_time: string }>;
  };
  const stream = data.streams[0]!;
  const fail = (what: string) => {
    throw new Error(`QA clip ${clip.name}: ${what}`);
  };
  if (stream.codec_name !== clip.codec || stream.width !== clip.width || stream.height !== clip.height) fail(`is ${stream.codec_name} ${stream.width}x${stream.height}`);
  const times = data.packets.map((p) => Number(p.pts_time)).sort((a, b) => a - b);
  const frames = clip.vfr ? VFR_FRAMES : Math.round(clip.seconds * clip.fps);
  if (times.length !== frames) fail(`has ${times.length} frames, not ${frames}`);
  if (clip.rotate) {
    // ffprobe gives the display matrix's rotation the other way round from the metadata tag.
    const rotation = stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
    if (rotation === undefined || Math.abs(Math.abs(rotation) - clip.rotate) > 0.5) fail(`has display rotation ${rotation}, not ${clip.rotate}`);
  }
  const lengths = new Set(times.slice(1).map((t, i) => Math.round((t - times[i]!) * clip.fps)));
  const expected = clip.vfr ? [1, 2, 3, 4, 34] : [1];
  if ([...lengths].sort((a, b) => a - b).join() !== expected.join()) fail(`has frames of ${[...lengths].join(', ')} 1/${clip.fps} s, not ${expected.join(', ')}`);
}

/**
 * Reads the barcode from decoded pixels of an upright, unscaled frame: `rgba` holds `width`
 * pixels a row, 4 bytes each. Returns the frame index.
 */
export function readFrameIndex(rgba: Uint8Array | Uint8ClampedArray, width: number): number {
  let index = 0;
  const y = Math.floor(BARCODE.block / 2);
  for (let bit = 0; bit < BARCODE.bits; bit++) {
    const x = bit * BARCODE.block + Math.floor(BARCODE.block / 2);
    const i = (y * width + x) * 4;
    const luma = 0.2126 * rgba[i]! + 0.7152 * rgba[i + 1]! + 0.0722 * rgba[i + 2]!;
    if (luma > 128) index += 2 ** bit;
  }
  return index;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  makeQaClips().then(
    (made) => console.log(made.length ? `Made ${made.join(', ')} in ${QA_CLIPS_DIR}` : `QA clips already in ${QA_CLIPS_DIR}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
