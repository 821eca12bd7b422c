/**
 * Creates the demo content on an empty database. Safe to interrupt at any point:
 *  1. media first, at stable keys (demo/<seed key>.mp4|jpg); each file is written to a
 *     temporary name and renamed, so a key holds a whole file or nothing, and a restart
 *     reuses the files already made;
 *  2. then every row in one transaction, inserted by seed key with ON CONFLICT DO NOTHING,
 *     together with the marker that says seeding is done.
 * A kill at any moment leaves either no demo rows or all of them, never duplicates.
 */
import { copyFile, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { videoCategoryBySlug } from '../../shared/categories.ts';
import type { DB } from '../platform/db/schema.ts';
import { probe, runFfmpeg, type MediaTools } from '../platform/media/ffmpeg.ts';
import type { ObjectStorage } from '../platform/storage/object-storage.ts';
import { generatePassword, hashPassword } from '../modules/accounts/index.ts';
import { DEMO_CREATORS, DEMO_VIDEOS, type DemoVideo } from './demo-content.ts';
import * as repo from './repository.ts';

export const SEED_MARKER = 'demo.seeded';
export const DEMO_ADMIN_EMAIL = 'admin@framemerch.local';
const CLIP_SECONDS = 3;

export interface SeedOptions {
  db: Kysely<DB>;
  storage: ObjectStorage;
  tools: MediaTools;
  adminPassword: string | null;
  /** A folder where generated clips are kept between data directories (tests, benchmarks). */
  mediaCache?: string | null;
  log: (message: string) => void;
  /** Called between steps; tests use it to simulate a crash. */
  onStep?: (step: string) => void | Promise<void>;
}

export interface SeedResult {
  seeded: boolean;
  admin?: { email: string; password: string | null };
}

function ffmpegArgs(v: DemoVideo, out: string): string[] {
  return [
    '-y',
    '-f', 'lavfi', '-i', v.source,
    '-f', 'lavfi', '-i', `sine=frequency=${v.toneHz}:sample_rate=48000`,
    '-t', String(CLIP_SECONDS),
    // Convert to BT.709 YUV and tag it so browsers and ffmpeg agree on the colours.
    '-vf', 'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-g', '30',
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv',
    '-c:a', 'aac', '-b:a', '96k',
    '-movflags', '+faststart',
    out,
  ];
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile() && s.size > 0,
    () => false,
  );
}

/** Makes the clip and its thumbnail in a scratch folder (or takes them from the cache). */
async function makeMedia(v: DemoVideo, tools: MediaTools, scratch: string, cache: string | null) {
  const args = ffmpegArgs(v, 'OUT');
  const id = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16);
  const dir = cache ?? scratch;
  const clip = path.join(dir, `${id}.mp4`);
  const thumb = path.join(dir, `${id}.jpg`);
  if (!(await exists(clip)) || !(await exists(thumb))) {
    const tmpClip = path.join(scratch, `${id}.tmp.mp4`);
    const tmpThumb = path.join(scratch, `${id}.tmp.jpg`);
    await runFfmpeg(tools.ffmpeg, ffmpegArgs(v, tmpClip));
    await runFfmpeg(tools.ffmpeg, ['-y', '-ss', '1.5', '-i', tmpClip, '-frames:v', '1', '-vf', 'scale=640:-2', '-q:v', '3', tmpThumb]);
    // Copy then rename, so another process reading the cache never sees half a file.
    const suffix = `.${process.pid}.${Date.now()}.part`;
    await copyFile(tmpThumb, thumb + suffix);
    await rename(thumb + suffix, thumb);
    await copyFile(tmpClip, clip + suffix);
    await rename(clip + suffix, clip);
  }
  return { clip, thumb };
}

/** Makes every demo clip into the cache folder ahead of time (tests and benchmarks share it). */
export async function fillMediaCache(tools: MediaTools, cache: string): Promise<void> {
  await mkdir(cache, { recursive: true });
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'framemerch-media-'));
  try {
    for (const v of DEMO_VIDEOS) await makeMedia(v, tools, scratch, cache);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function seedDemo(opts: SeedOptions): Promise<SeedResult> {
  const { db, storage, tools, log } = opts;
  if (await repo.hasSeedMarker(db, SEED_MARKER)) return { seeded: false };

  log(`Creating demo content: ${DEMO_CREATORS.length} creators, ${DEMO_VIDEOS.length} videos...`);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'framemerch-seed-'));
  if (opts.mediaCache) await mkdir(opts.mediaCache, { recursive: true });
  const media = new Map<string, { sizeBytes: number; durationMs: number | null; width: number | null; height: number | null }>();
  try {
    for (const v of DEMO_VIDEOS) {
      const videoKey = `demo/${v.seedKey}.mp4`;
      const thumbKey = `demo/${v.seedKey}.jpg`;
      const { clip, thumb } = await makeMedia(v, tools, scratch, opts.mediaCache ?? null);
      const info = await probe(tools.ffprobe, clip);
      if (!(await storage.stat('thumbnails', thumbKey))) await storage.put('thumbnails', thumbKey, createReadStream(thumb));
      const stored = (await storage.stat('videos', videoKey)) ?? (await storage.put('videos', videoKey, createReadStream(clip)));
      media.set(v.seedKey, { sizeBytes: stored.size, ...info });
      await opts.onStep?.(`media:${v.seedKey}`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }

  const password = opts.adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  await opts.onStep?.('rows');

  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const ids = new Map<string, string>();
    for (const [i, c] of DEMO_CREATORS.entries()) {
      await repo.insertSeedUser(trx, {
        seed_key: c.seedKey,
        email: c.email,
        email_verified: true,
        username: c.username,
        display_name: c.displayName,
        bio: c.bio,
        role: 'creator',
        // Older creators first, so the newest creator is the last one listed.
        created_at: new Date(now - (DEMO_CREATORS.length - i) * 24 * 3600 * 1000),
      });
      ids.set(c.username, await repo.seedUserId(trx, c.seedKey));
    }
    for (const v of DEMO_VIDEOS) {
      const m = media.get(v.seedKey)!;
      await repo.insertSeedVideo(trx, {
        seed_key: v.seedKey,
        user_id: ids.get(v.creator)!,
        title: v.title,
        description: v.description,
        category: v.category,
        category_id: videoCategoryBySlug(v.category)?.id ?? 0,
        video_key: `demo/${v.seedKey}.mp4`,
        thumbnail_key: `demo/${v.seedKey}.jpg`,
        poster_key: `demo/${v.seedKey}.jpg`,
        content_type: 'video/mp4',
        size_bytes: m.sizeBytes,
        duration_ms: m.durationMs,
        width: m.width,
        height: m.height,
        view_count: v.viewCount,
        created_at: new Date(now - v.ageHours * 3600 * 1000),
      });
    }
    await repo.insertSeedUser(trx, {
      seed_key: 'demo-admin',
      email: DEMO_ADMIN_EMAIL,
      email_verified: true,
      username: 'admin',
      display_name: 'FrameMerch Admin',
      role: 'customer',
      is_admin: true,
      password_hash: passwordHash,
    });
    await repo.insertSeedMarker(trx, SEED_MARKER, new Date(now));
  });
  return { seeded: true, admin: { email: DEMO_ADMIN_EMAIL, password: opts.adminPassword ? null : password } };
}
