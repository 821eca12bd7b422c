import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { NO_BACKGROUND, testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { CACHE_NAMESPACES } from './read-cache.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ READ_CACHE_MS: '60000' }) });
  const user = await t.db
    .insertInto('users')
    .values({ email: 'cache@example.com', username: 'cachey', display_name: 'Cachey' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto('videos')
    .values({ user_id: user.id, title: 'First', video_key: 'ca/first.mp4', content_type: 'video/mp4', size_bytes: 1, category: 'music' })
    .execute();
});
afterAll(async () => t?.close());

const titles = async (url = '/api/videos') =>
  ((await t.app.inject({ method: 'GET', url })).json().videos as Array<{ title: string }>).map((v) => v.title);

describe('cached public reads', () => {
  it('serves a feed page from the cache until a write clears it', async () => {
    expect(await titles()).toEqual(['First']);
    const owner = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await t.db
      .insertInto('videos')
      .values({ user_id: owner.id, title: 'Second', video_key: 'ca/second.mp4', content_type: 'video/mp4', size_bytes: 1, category: 'music' })
      .execute();
    expect(await titles()).toEqual(['First']);
    expect(await titles('/api/videos?category=music')).toEqual(['Second', 'First']);
    t.app.readCache.invalidate(CACHE_NAMESPACES.feed);
    expect(await titles()).toEqual(['Second', 'First']);
  });

  it('caches the sidebar creators separately', async () => {
    const first = (await t.app.inject({ method: 'GET', url: '/api/creators/newest' })).json();
    // The sidebar lists creators with a video: a new creator with one.
    const newbie = await t.db
      .insertInto('users')
      .values({ email: 'new@example.com', username: 'newbie', display_name: 'Newbie' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('videos')
      .values({ user_id: newbie.id, title: 'Hello', video_key: 'ca/hello.mp4', content_type: 'video/mp4', size_bytes: 1, category: 'music' })
      .execute();
    t.app.readCache.invalidate(CACHE_NAMESPACES.feed);
    expect((await t.app.inject({ method: 'GET', url: '/api/creators/newest' })).json()).toEqual(first);
    t.app.readCache.invalidate(CACHE_NAMESPACES.creators);
    const after = (await t.app.inject({ method: 'GET', url: '/api/creators/newest' })).json();
    expect(after.creators[0].username).toBe('newbie');
  });

  it('does not cache a refused request', async () => {
    const bad = Buffer.from('x|y').toString('base64url');
    expect((await t.app.inject({ method: 'GET', url: `/api/videos?before=${bad}` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/videos?before=${bad}` })).statusCode).toBe(400);
  });

  it("a write through one app clears another app's cache on the same database (the processes behind a load balancer)", async () => {
    const other = await buildApp(
      { config: t.config, database: t.database, storage: t.storage, catalogue: t.app.catalogue, sealedValues: t.sealedValues, ownsDatabase: false },
      NO_BACKGROUND,
    );
    try {
      const read = async (app: typeof other) =>
        ((await app.inject({ method: 'GET', url: '/api/videos', headers: { host: new URL(t.config.publicUrl).host } })).json().videos as Array<{ title: string }>).map((v) => v.title);
      const before = await read(other);
      const owner = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
      await t.db
        .insertInto('videos')
        .values({ user_id: owner.id, title: 'Third', video_key: 'ca/third.mp4', content_type: 'video/mp4', size_bytes: 1, category: 'music' })
        .execute();
      // The other app still serves its cached page...
      expect(await read(other)).toEqual(before);
      // ...until this one says the feed changed: the notification reaches the other app's cache.
      t.app.readCache.invalidate(CACHE_NAMESPACES.feed);
      const deadline = Date.now() + 5000;
      let after = await read(other);
      while (!after.includes('Third') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        after = await read(other);
      }
      expect(after).toEqual(['Third', ...before]);
    } finally {
      await other.close();
    }
  });
});
