/**
 * kill -9 of the real server while ten uploads are in flight (some still streaming, some being
 * checked, stored or saved), then a restart: no stored file without its row, no row without its
 * files, no announcements and no temporary files are left.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession } from '../../platform/sessions/sessions.ts';
import { openDatabase, type DatabaseTarget } from '../../platform/db/database.ts';
import { migrate } from '../../platform/db/migrate.ts';
import { createUser } from '../accounts/index.ts';
import { freePort } from '../../test/ports.ts';
import { exited, startServer, waitForHealth } from '../../test/server-process.ts';
import { freshDatabase, type TestDatabase } from '../../test/harness.ts';
import { multipart, testMedia, uploadParts } from '../../test/upload-helpers.ts';

let dataDir = '';
let pgdb: TestDatabase | null = null;

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await pgdb?.drop();
});

function start(port: number, url: string | null) {
  return startServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SEED_DEMO: 'false', DATABASE_URL: url ?? '' });
}

/** Sends a body in slices with pauses, like a slow connection. */
function slowBody(body: Buffer, sliceBytes: number, pauseMs: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= body.length) return controller.close();
      await new Promise((r) => setTimeout(r, pauseMs));
      controller.enqueue(body.subarray(offset, offset + sliceBytes));
      offset += sliceBytes;
    },
  });
}

function listKeys(bucket: string): string[] {
  const base = path.join(dataDir, 'storage', bucket);
  return readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(path.join(base, d.name)).map((f) => `${d.name}/${f}`));
}

describe('kill -9 during ten parallel uploads', () => {
  it('leaves no orphan files or rows after the restart', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-upload-crash-'));
    if (process.env.TEST_DATABASE_URL) {
      pgdb = await freshDatabase();
      await pgdb.database.close();
    }
    const url = pgdb?.url ?? null;
    const target: DatabaseTarget = url ? { url } : { dataDir: path.join(dataDir, 'pglite') };

    // A creator and a session, made before the server holds the database.
    const setup = await openDatabase(target);
    await migrate(setup.db);
    const user = await createUser(setup.db, { email: 'crash@example.com', displayName: 'Crash', role: 'creator', emailVerified: true });
    const { token } = await createSession(setup.db, user.id, 1, {});
    await setup.close();

    const port = await freePort();
    const clip = await testMedia('h264-720p.mp4');
    const thumb = await testMedia('thumbnail.jpg');
    const child = start(port, url);
    await waitForHealth(port, child);

    const uploads = Array.from({ length: 10 }, async (_, i) => {
      const { payload, headers } = await multipart(uploadParts(clip, thumb, { title: `Crash ${i}` }));
      // Staggered and slowed, so the kill finds uploads at every stage.
      await new Promise((r) => setTimeout(r, i * 150));
      return fetch(`http://127.0.0.1:${port}/api/videos`, {
        method: 'POST',
        body: slowBody(payload, 256 * 1024, 40 + i * 15),
        duplex: 'half',
        headers: { ...headers, cookie: `fm_session=${token}`, origin: `http://127.0.0.1:${port}` },
      } as RequestInit).then(
        (r) => r.status,
        () => 0,
      );
    });
    await new Promise((r) => setTimeout(r, 1200));
    child.kill('SIGKILL');
    await exited(child);
    const statuses = await Promise.all(uploads);
    expect(statuses.filter((s) => s === 0).length, `statuses ${statuses}`).toBeGreaterThan(0);

    const again = start(port, url);
    await waitForHealth(port, again);
    // The restarted server sweeps what the dead one left: on the embedded database at its
    // start (it is the only process), on PostgreSQL once the dead process's heartbeat is stale.
    if (url) {
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline) {
        const now = await readRows(target);
        if (now.pending === 0 && now.instances === 1) break;
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    again.kill('SIGTERM');
    expect(await exited(again)).toBe(0);
    const final = await readRows(target);
    expect(final.pending).toBe(0);
    expect(final.rows.map((r) => r.video_key).sort()).toEqual(listKeys('videos').sort());
    expect(final.rows.map((r) => r.thumbnail_key).sort()).toEqual(listKeys('thumbnails').sort());
    expect(final.rows.length).toBeLessThanOrEqual(10);
    const leftovers = readdirSync(path.join(dataDir, 'tmp')).flatMap((d) => readdirSync(path.join(dataDir, 'tmp', d)));
    expect(leftovers, JSON.stringify(readdirSync(path.join(dataDir, 'tmp')))).toEqual([]);
  }, 200_000);
});

async function readRows(target: DatabaseTarget) {
  const db = await openDatabase(target);
  try {
    const rows = await db.db.selectFrom('videos').select(['video_key', 'thumbnail_key']).execute();
    const pending = (await db.db.selectFrom('pending_objects').selectAll().execute()).length;
    const instances = (await db.db.selectFrom('server_instances').selectAll().execute()).length;
    return { rows, pending, instances };
  } finally {
    await db.close();
  }
}

