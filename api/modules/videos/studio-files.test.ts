/**
 * Every file the studio's routes store is announced before it is written and released only with
 * its row: when the row cannot be written nothing is left, and when the process dies before it
 * can clean up, the sweep of the next process removes the file.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { multipart, signedInCreator, testMedia, uploadParts } from '../../test/upload-helpers.ts';

let t: TestApp;
let clip: Buffer;
let thumb: Buffer;

beforeAll(async () => {
  t = await testApp();
  clip = await testMedia('h264-small.mp4');
  thumb = await testMedia('thumbnail.jpg');
});
afterAll(async () => t?.close());

function storedKeys(bucket: string): string[] {
  const base = path.join(t.config.dataDir, 'storage', bucket);
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(path.join(base, d.name)).map((f) => `${d.name}/${f}`));
}

const pending = () => t.db.selectFrom('pending_objects').selectAll().execute();

/** Makes every write to the table fail, as a full disk or a broken constraint would. */
async function refuseWrites<T>(table: 'users' | 'videos', run: () => Promise<T>): Promise<T> {
  await sql`create function refuse_write() returns trigger language plpgsql as $$ begin raise exception 'disk quota exceeded'; end $$`.execute(t.db);
  await sql`create trigger refuse_write before insert or update on ${sql.table(table)} for each row execute function refuse_write()`.execute(t.db);
  try {
    return await run();
  } finally {
    await sql`drop trigger refuse_write on ${sql.table(table)}`.execute(t.db);
    await sql`drop function refuse_write()`.execute(t.db);
  }
}

/** The process "dies" after storing: it never cleans up, and its announcements outlive it. */
async function dyingProcess<T>(run: () => Promise<T>): Promise<T> {
  const discard = t.app.pendingObjects.discard;
  t.app.pendingObjects.discard = async () => {};
  try {
    return await run();
  } finally {
    t.app.pendingObjects.discard = discard;
  }
}

/** The announcements now belong to a process that stopped beating; a live process's sweep finds them. */
async function sweepAfterDeath(): Promise<number> {
  await t.db.updateTable('pending_objects').set({ instance_id: '00000000-0000-4000-8000-000000000000' }).execute();
  return t.app.pendingObjects.sweep(false);
}

async function postImage(me: Awaited<ReturnType<typeof signedInCreator>>, kind: 'avatar' | 'cover') {
  const { payload, headers } = await multipart([{ name: 'image', value: thumb, filename: 'me.jpg', type: 'image/jpeg' }]);
  return t.app.inject({ method: 'POST', url: `/api/studio/profile/${kind}`, payload, headers: { ...headers, ...me.headers }, cookies: me.cookies });
}

async function postVideo(me: Awaited<ReturnType<typeof signedInCreator>>) {
  const { payload, headers } = await multipart(uploadParts(clip, thumb));
  return t.app.inject({ method: 'POST', url: '/api/videos', payload, headers: { ...headers, ...me.headers }, cookies: me.cookies });
}

describe('POST /api/studio/profile/:kind', () => {
  it('leaves no file and no announcement when the profile cannot be changed', async () => {
    const me = await signedInCreator(t, 'imagefail');
    const before = storedKeys('profile-images');
    const res = await refuseWrites('users', () => postImage(me, 'avatar'));
    expect(res.statusCode).toBe(500);
    expect(res.json().error).toBe(UPLOAD_MESSAGES.profileUploadFailed);
    expect(storedKeys('profile-images')).toEqual(before);
    expect(await pending()).toEqual([]);
  });

  it('leaves a stored image to the sweep when the process dies before linking it', async () => {
    const me = await signedInCreator(t, 'imagecrash');
    const before = storedKeys('profile-images');
    const res = await dyingProcess(() => refuseWrites('users', () => postImage(me, 'cover')));
    expect(res.statusCode).toBe(500);
    const orphans = storedKeys('profile-images').filter((k) => !before.includes(k));
    expect(orphans).toHaveLength(1);
    expect((await pending()).map((p) => `${p.bucket}/${p.key}`)).toEqual([`profile-images/${orphans[0]}`]);
    expect(await sweepAfterDeath()).toBe(1);
    expect(storedKeys('profile-images')).toEqual(before);
    expect(await pending()).toEqual([]);
  });

  it('removes the image it replaces, and keeps the new one', async () => {
    const me = await signedInCreator(t, 'imagetwice');
    const first = (await postImage(me, 'avatar')).json().profile.profile_image_url as string;
    const second = (await postImage(me, 'avatar')).json().profile.profile_image_url as string;
    const key = (url: string) => url.replace('/media/profile-images/', '');
    expect(storedKeys('profile-images')).toContain(key(second));
    expect(storedKeys('profile-images')).not.toContain(key(first));
    expect(await pending()).toEqual([]);
  });
});

describe('POST /api/videos', () => {
  it('leaves the stored video and thumbnail to the sweep when the process dies before the row', async () => {
    const me = await signedInCreator(t, 'videocrash');
    const before = { videos: storedKeys('videos'), thumbnails: storedKeys('thumbnails') };
    const res = await dyingProcess(() => refuseWrites('videos', () => postVideo(me)));
    expect(res.statusCode).toBe(500);
    expect(storedKeys('videos')).toHaveLength(before.videos.length + 1);
    expect(storedKeys('thumbnails')).toHaveLength(before.thumbnails.length + 1);
    expect((await pending()).map((p) => p.bucket).sort()).toEqual(['thumbnails', 'videos']);
    expect(await sweepAfterDeath()).toBe(2);
    expect(storedKeys('videos')).toEqual(before.videos);
    expect(storedKeys('thumbnails')).toEqual(before.thumbnails);
    expect(await pending()).toEqual([]);
  });
});
