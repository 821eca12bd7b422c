import { afterEach, describe, expect, it } from 'vitest';
import { findMediaTools } from '../platform/media/ffmpeg.ts';
import { DEMO_CREATORS, DEMO_VIDEOS } from './demo-content.ts';
import { DEMO_ADMIN_EMAIL, seedDemo, type SeedOptions } from './seed-demo.ts';
import { verifyPassword } from '../modules/accounts/index.ts';
import { MEDIA_CACHE, testApp, type TestApp } from '../test/harness.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function counts(app: TestApp) {
  const users = await app.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const videos = await app.db.selectFrom('videos').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { users: Number(users.n), videos: Number(videos.n) };
}

async function options(app: TestApp, extra: Partial<SeedOptions> = {}): Promise<SeedOptions> {
  return { db: app.db, storage: app.storage, tools: await findMediaTools(app.config), adminPassword: null, mediaCache: MEDIA_CACHE, log: () => {}, ...extra };
}

describe('demo seeding', () => {
  it('creates creators, videos with real media, and an admin whose password works', async () => {
    t = await testApp();
    const result = await seedDemo(await options(t));
    expect(result.seeded).toBe(true);
    expect(result.admin?.email).toBe(DEMO_ADMIN_EMAIL);
    expect(result.admin?.password).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(await counts(t)).toEqual({ users: DEMO_CREATORS.length + 1, videos: DEMO_VIDEOS.length });
    const admin = await t.db.selectFrom('users').selectAll().where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow();
    expect(admin.is_admin).toBe(true);
    expect(await verifyPassword(result.admin!.password!, admin.password_hash!)).toBe(true);
    expect(await verifyPassword('wrong password', admin.password_hash!)).toBe(false);
    const categories = new Set((await t.db.selectFrom('videos').select('category').execute()).map((r) => r.category));
    expect(categories.size).toBeGreaterThanOrEqual(8);
    for (const v of await t.db.selectFrom('videos').selectAll().execute()) {
      const stored = await t.storage.stat('videos', v.video_key);
      expect(stored?.size).toBe(v.size_bytes);
      expect(await t.storage.stat('thumbnails', v.thumbnail_key!)).not.toBeNull();
      expect(v).toMatchObject({ width: 1280, height: 720, content_type: 'video/mp4' });
      expect(v.duration_ms).toBeGreaterThan(2500);
    }
  });

  it('does nothing the second time', async () => {
    t = await testApp();
    await seedDemo(await options(t));
    const again = await seedDemo(await options(t));
    expect(again.seeded).toBe(false);
    expect(await counts(t)).toEqual({ users: DEMO_CREATORS.length + 1, videos: DEMO_VIDEOS.length });
  });

  it('leaves no rows when interrupted before its transaction, and completes on the next start', async () => {
    t = await testApp();
    const crash = new Error('power cut');
    await expect(
      seedDemo(await options(t, { onStep: (step) => { if (step === 'rows') throw crash; } })),
    ).rejects.toBe(crash);
    expect(await counts(t)).toEqual({ users: 0, videos: 0 });
    const result = await seedDemo(await options(t));
    expect(result.seeded).toBe(true);
    expect(await counts(t)).toEqual({ users: DEMO_CREATORS.length + 1, videos: DEMO_VIDEOS.length });
  });

  it('uses the given admin password and does not echo it', async () => {
    t = await testApp();
    const result = await seedDemo(await options(t, { adminPassword: 'a long test password' }));
    expect(result.admin?.password).toBeNull();
    const admin = await t.db.selectFrom('users').select('password_hash').where('email', '=', DEMO_ADMIN_EMAIL).executeTakeFirstOrThrow();
    expect(await verifyPassword('a long test password', admin.password_hash!)).toBe(true);
  });
});
