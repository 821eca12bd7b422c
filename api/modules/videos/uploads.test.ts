import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import { findMediaTools } from '../../platform/media/ffmpeg.ts';
import { mp4MoovFirst } from '../../platform/media/mp4-layout.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { multipart, signedInCreator, testMedia, uploadParts, type Part } from '../../test/upload-helpers.ts';

let t: TestApp;
let clip: Buffer;
let thumb: Buffer;
let scratch: string;
let ffmpeg: string;

beforeAll(async () => {
  t = await testApp();
  clip = await testMedia('h264-small.mp4');
  thumb = await testMedia('thumbnail.jpg');
  scratch = await mkdtemp(path.join(os.tmpdir(), 'fm-upload-'));
  ffmpeg = (await findMediaTools({ ffmpegPath: null, ffprobePath: null })).ffmpeg;
});
afterAll(async () => t?.close());

function make(name: string, args: string[]): Promise<Buffer> {
  const out = path.join(scratch, name);
  if (!existsSync(out)) execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return readFile(out);
}

async function upload(creator: Awaited<ReturnType<typeof signedInCreator>>, parts: Part[]) {
  const { payload, headers } = await multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/videos', payload, headers: { ...headers, ...creator.headers }, cookies: creator.cookies });
}

function storedKeys(bucket: string): string[] {
  const base = path.join(t.config.dataDir, 'storage', bucket);
  return readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(path.join(base, d.name)).map((f) => `${d.name}/${f}`));
}

/** Nothing of a refused upload may remain: no row, no stored file, no announcement, no temporary file. */
async function expectNothingLeft(before: { videos: string[]; thumbnails: string[]; rows: number }) {
  expect(storedKeys('videos')).toEqual(before.videos);
  expect(storedKeys('thumbnails')).toEqual(before.thumbnails);
  const rows = await t.db.selectFrom('videos').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  expect(Number(rows.n)).toBe(before.rows);
  expect(await t.db.selectFrom('pending_objects').selectAll().execute()).toEqual([]);
  expect(readdirSync(t.app.pendingObjects.tmpDir)).toEqual([]);
}

async function snapshot() {
  const rows = await t.db.selectFrom('videos').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { videos: storedKeys('videos'), thumbnails: storedKeys('thumbnails'), rows: Number(rows.n) };
}

const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'.padEnd(400, ' '));
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'.padEnd(400, ' '));
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(400, 1)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(400, 0)]);

describe('POST /api/videos', () => {
  it('stores a checked video and its re-encoded thumbnail, and the video shows in the feed at once', async () => {
    const creator = await signedInCreator(t, 'uploader');
    const withExif = await sharp(thumb).withMetadata({ exif: { IFD0: { Copyright: 'secret place' } } }).jpeg().toBuffer();
    const res = await upload(creator, uploadParts(clip, withExif));
    expect(res.statusCode, res.body).toBe(201);
    const card = res.json().video;
    expect(card).toMatchObject({ title: 'My upload', category: 'music', category_id: 2, channel_slug: 'uploader', view_count: 0 });
    const row = await t.db.selectFrom('videos').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ verification_status: 'verified_via_supabase_auth', content_type: 'video/mp4', width: 640, height: 360 });
    expect(row.duration_ms).toBeGreaterThan(1500);
    const storedThumb = await readFile(path.join(t.config.dataDir, 'storage', 'thumbnails', row.thumbnail_key!));
    const meta = await sharp(storedThumb).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    const feed = (await t.app.inject({ method: 'GET', url: '/api/videos' })).json().videos as Array<{ id: string }>;
    expect(feed.map((v) => v.id)).toContain(card.id);
    expect(await t.db.selectFrom('pending_objects').selectAll().execute()).toEqual([]);
  });

  it('moves the index of an MP4 to the front (no re-encode), so it plays while downloading', async () => {
    const creator = await signedInCreator(t, 'remuxer');
    const late = await make('moov-last.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']);
    const lateFile = path.join(scratch, 'moov-last.mp4');
    expect(await mp4MoovFirst(lateFile)).toBe(false);
    const res = await upload(creator, uploadParts(late, thumb));
    expect(res.statusCode, res.body).toBe(201);
    const row = await t.db.selectFrom('videos').select(['video_key', 'size_bytes']).where('id', '=', res.json().video.id).executeTakeFirstOrThrow();
    const stored = path.join(t.config.dataDir, 'storage', 'videos', row.video_key);
    expect(await mp4MoovFirst(stored)).toBe(true);
    // Stream copy: the size stays within a few percent of the original (a re-encode would not).
    expect(Math.abs(row.size_bytes - late.length) / late.length).toBeLessThan(0.05);
  });

  it('accepts a VP9 WebM', async () => {
    const creator = await signedInCreator(t, 'webmer');
    const res = await upload(creator, uploadParts(await testMedia('vp9-720p.webm'), thumb, {}, { video: 'clip.webm', thumbnail: 't.jpg' }));
    expect(res.statusCode, res.body).toBe(201);
    const row = await t.db.selectFrom('videos').select(['content_type', 'video_key']).where('id', '=', res.json().video.id).executeTakeFirstOrThrow();
    expect(row.content_type).toBe('video/webm');
    expect(row.video_key).toMatch(/\.webm$/);
  });

  it('refuses HTML, SVG, ZIP and ELF bytes under a video name, storing nothing', async () => {
    const creator = await signedInCreator(t, 'sneaky');
    const before = await snapshot();
    for (const [label, bytes] of Object.entries({ HTML, SVG, ZIP, ELF })) {
      const res = await upload(creator, uploadParts(bytes, thumb));
      expect([415, 422], label).toContain(res.statusCode);
      expect(res.json().error, label).toMatch(/^Video upload failed: /);
      await expectNothingLeft(before);
    }
  });

  it('refuses HTML, SVG, ZIP and ELF bytes under an image name, storing nothing', async () => {
    const creator = await signedInCreator(t, 'sneakier');
    const before = await snapshot();
    for (const [label, bytes] of Object.entries({ HTML, SVG, ZIP, ELF })) {
      const res = await upload(creator, uploadParts(clip, bytes));
      expect([415, 422], label).toContain(res.statusCode);
      expect(res.json().error, label).toBe(UPLOAD_MESSAGES.thumbnailFailed);
      await expectNothingLeft(before);
    }
  });

  it('refuses a codec browsers do not play', async () => {
    const creator = await signedInCreator(t, 'oldcodec');
    const mpeg4 = await make('mpeg4.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-t', '1', '-c:v', 'mpeg4']);
    const before = await snapshot();
    const res = await upload(creator, uploadParts(mpeg4, thumb));
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatch(/^Video upload failed: the video codec mpeg4/);
    await expectNothingLeft(before);
  });

  it('holds a free creator to 10 minutes and a pro creator to 60', async () => {
    const long = await make('eleven-minutes.mp4', ['-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=1', '-t', '660', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']);
    const free = await signedInCreator(t, 'freecreator');
    const before = await snapshot();
    const refused = await upload(free, uploadParts(long, thumb));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe('Video upload failed: Video must be at most 10 minutes long. Upgrade to Pro on /subscription-tiers for videos up to 2GB and 60 minutes.');
    await expectNothingLeft(before);
    const pro = await signedInCreator(t, 'procreator');
    await t.db.insertInto('user_subscriptions').values({ user_id: pro.user.id, tier: 'pro', status: 'active' }).execute();
    expect((await upload(pro, uploadParts(long, thumb))).statusCode).toBe(201);
  });

  it("refuses a video over the free tier's 100 MB with the spec's message", async () => {
    const creator = await signedInCreator(t, 'bigfile');
    const before = await snapshot();
    const huge = Buffer.concat([clip.subarray(0, 64), Buffer.alloc(100 * 1024 * 1024 + 10, 0)]);
    const res = await upload(creator, uploadParts(huge, thumb));
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('Video upload failed: Video file size must be less than 100MB. Upgrade to Pro on /subscription-tiers for videos up to 2GB and 60 minutes.');
    await expectNothingLeft(before);
  }, 60_000);

  it('ignores the names files are sent under: traversal names create nothing outside storage', async () => {
    const creator = await signedInCreator(t, 'traveller');
    const names = ['../../etc/passwd', '..\\..\\windows\\win.ini', '%2e%2e%2f%2e%2e%2fescape.mp4', '..%2f..%2fescape.mp4', 'nul\u0000byte.mp4', '/absolute/path.mp4'];
    for (const name of names) {
      const res = await upload(creator, uploadParts(clip, thumb, { title: `Name ${name.length}` }, { video: name, thumbnail: name }));
      expect(res.statusCode, name).toBe(201);
    }
    const parent = path.dirname(t.config.dataDir);
    for (const leaked of ['etc/passwd', 'escape.mp4', 'windows/win.ini', 'absolute/path.mp4']) {
      expect(existsSync(path.join(parent, leaked)), leaked).toBe(false);
      expect(existsSync(path.join(t.config.dataDir, leaked)), leaked).toBe(false);
    }
    for (const key of [...storedKeys('videos'), ...storedKeys('thumbnails')]) expect(key).toMatch(/^[0-9a-f]{2}\/[0-9a-f-]{36}\.(mp4|webm|jpg)$/);
  });

  it('answers the missing parts with the spec messages', async () => {
    const creator = await signedInCreator(t, 'forgetful');
    const cases: Array<[Part[], string]> = [
      [uploadParts(clip, thumb, { title: '  ' }), UPLOAD_MESSAGES.titleRequired],
      [uploadParts(clip, thumb, { description: '' }), UPLOAD_MESSAGES.descriptionRequired],
      [uploadParts(clip, thumb).filter((p) => p.name !== 'video'), UPLOAD_MESSAGES.videoRequired],
      [uploadParts(clip, thumb).filter((p) => p.name !== 'thumbnail'), UPLOAD_MESSAGES.thumbnailRequired],
    ];
    for (const [parts, message] of cases) {
      const res = await upload(creator, parts);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toBe(message);
    }
    const json = await t.app.inject({ method: 'POST', url: '/api/videos', payload: { title: 'x' }, headers: creator.headers, cookies: creator.cookies });
    expect(json.statusCode).toBe(415);
  });

  it('answers a database failure with the spec message, without the database\'s words, and leaves no files', async () => {
    const creator = await signedInCreator(t, 'unlucky');
    const before = await snapshot();
    await sql`create function refuse_video() returns trigger language plpgsql as $$ begin raise exception 'disk quota exceeded'; end $$`.execute(t.db);
    await sql`create trigger refuse_video before insert on videos for each row execute function refuse_video()`.execute(t.db);
    try {
      const res = await upload(creator, uploadParts(clip, thumb));
      expect(res.statusCode).toBe(500);
      // The spec's form, with a reason the user can act on; the database's own words stay in the log.
      expect(res.json().error).toBe('Database error: the video could not be saved. Please try again.');
      expect(res.body).not.toContain('quota');
      await expectNothingLeft(before);
    } finally {
      await sql`drop trigger refuse_video on videos`.execute(t.db);
      await sql`drop function refuse_video()`.execute(t.db);
    }
  });

  it('is refused to customers and anonymous visitors', async () => {
    const { payload, headers } = await multipart(uploadParts(clip, thumb));
    expect((await t.app.inject({ method: 'POST', url: '/api/videos', payload, headers })).statusCode).toBe(401);
  });
});

describe('serving and deleting an uploaded video', () => {
  it('answers a range in the middle of the stored video with exactly those bytes', async () => {
    const creator = await signedInCreator(t, 'ranger');
    const res = await upload(creator, uploadParts(clip, thumb));
    const row = await t.db.selectFrom('videos').select(['video_key', 'size_bytes']).where('id', '=', res.json().video.id).executeTakeFirstOrThrow();
    const stored = await readFile(path.join(t.config.dataDir, 'storage', 'videos', row.video_key));
    const start = Math.floor(row.size_bytes / 3);
    const end = start + 65_535;
    const part = await t.app.inject({ method: 'GET', url: `/media/videos/${row.video_key}`, headers: { range: `bytes=${start}-${end}` } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${row.size_bytes}`);
    expect(Buffer.compare(part.rawPayload, stored.subarray(start, end + 1))).toBe(0);
  });

  it('lets its creator delete it with its files, and refuses other creators', async () => {
    const owner = await signedInCreator(t, 'owner');
    const other = await signedInCreator(t, 'other');
    const id = (await upload(owner, uploadParts(clip, thumb))).json().video.id as string;
    const row = await t.db.selectFrom('videos').select(['video_key', 'thumbnail_key']).where('id', '=', id).executeTakeFirstOrThrow();
    const del = (who: typeof owner) => t.app.inject({ method: 'DELETE', url: `/api/videos/${id}`, headers: who.headers, cookies: who.cookies });
    // Another creator's video answers as a missing one (404), so a refusal does not confirm it exists.
    expect((await del(other)).statusCode).toBe(404);
    expect((await del(owner)).statusCode).toBe(200);
    expect(await t.db.selectFrom('videos').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(storedKeys('videos')).not.toContain(row.video_key);
    expect(storedKeys('thumbnails')).not.toContain(row.thumbnail_key);
    expect(await t.db.selectFrom('pending_objects').selectAll().execute()).toEqual([]);
  });
});

describe('POST /api/videos: inputs found by the abuse benchmark', () => {
  it('refuses a text field with a NUL character with 400, storing nothing', async () => {
    const creator = await signedInCreator(t, 'nul-uploader');
    const before = await snapshot();
    for (const extra of [{ description: 'before\u0000after' }, { title: '\u0000' }]) {
      const res = await upload(creator, uploadParts(clip, thumb, extra));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'MALFORMED_REQUEST', error: 'Text fields may not contain NUL characters.' });
    }
    await expectNothingLeft(before);
  });

  it('refuses a video whose frames have no size (ffprobe reads 0 x 0) with 422, storing nothing', async () => {
    const creator = await signedInCreator(t, 'sizeless-uploader');
    const before = await snapshot();
    const damaged = await readFile(path.join(import.meta.dirname, '../../test/fixtures/frame-size-unreadable.mp4'));
    const res = await upload(creator, uploadParts(damaged, thumb));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe('Video upload failed: the video has no frame size');
    await expectNothingLeft(before);
  });
});
