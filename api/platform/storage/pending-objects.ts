/**
 * Keeps storage and database in step. A file is announced (pending_objects) before it is
 * written and released in the transaction that commits the row owning it, so a crash at any
 * point leaves either a committed row with its files, or announced files the sweep removes.
 * Each server process registers itself and beats a heartbeat; the sweep removes what dead
 * processes announced, and their temporary upload folders.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { StorageBucket } from '../../../shared/constants.ts';
import type { DB } from '../db/schema.ts';
import type { ObjectStorage } from './object-storage.ts';

const HEARTBEAT_MS = 10_000;
const DEAD_AFTER_MS = 45_000;

export interface StoredFile {
  bucket: StorageBucket;
  key: string;
}

export class PendingObjects {
  readonly instanceId = randomUUID();
  readonly tmpRoot: string;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly storage: ObjectStorage,
    dataDir: string,
    /** With the embedded database only one process can run, so every other instance is dead. */
    private readonly soleProcess: boolean,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {
    this.tmpRoot = path.join(dataDir, 'tmp');
  }

  /** A private temporary folder for this process's uploads. */
  get tmpDir(): string {
    return path.join(this.tmpRoot, this.instanceId);
  }

  async start(): Promise<void> {
    await this.db.insertInto('server_instances').values({ id: this.instanceId }).execute();
    await mkdir(this.tmpDir, { recursive: true });
    await this.sweep(this.soleProcess);
    this.#timer = setInterval(() => {
      void this.#beat().then(
        () => this.sweep(false),
        (err) => this.log('heartbeat failed', err),
      );
    }, HEARTBEAT_MS);
    this.#timer.unref();
  }

  async #beat() {
    await this.db.updateTable('server_instances').set({ heartbeat_at: new Date() }).where('id', '=', this.instanceId).execute();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await rm(this.tmpDir, { recursive: true, force: true });
    await this.db
      .deleteFrom('server_instances')
      .where('id', '=', this.instanceId)
      .execute()
      .catch((err) => this.log('could not unregister this process', err));
  }

  /** Announces files about to be written. */
  async announce(files: StoredFile[]): Promise<void> {
    if (files.length === 0) return;
    await this.db
      .insertInto('pending_objects')
      .values(files.map((f) => ({ bucket: f.bucket, key: f.key, instance_id: this.instanceId })))
      .execute();
  }

  /** Inside the transaction that commits the owning row: the files are no longer pending. */
  async release(trx: Transaction<DB>, files: StoredFile[]): Promise<void> {
    for (const f of files) await trx.deleteFrom('pending_objects').where('bucket', '=', f.bucket).where('key', '=', f.key).execute();
  }

  /** Deletes announced files and their announcements (a failed upload, or a deleted row's files). */
  async discard(files: StoredFile[]): Promise<void> {
    for (const f of files) {
      await this.storage.delete(f.bucket, f.key);
      await this.db.deleteFrom('pending_objects').where('bucket', '=', f.bucket).where('key', '=', f.key).execute();
    }
  }

  /** Removes what dead processes left: announced files, and temporary folders. */
  async sweep(everyOtherInstanceIsDead: boolean): Promise<number> {
    const deadBefore = new Date(Date.now() - DEAD_AFTER_MS);
    const alive = new Set(
      everyOtherInstanceIsDead
        ? []
        : (await this.db.selectFrom('server_instances').select('id').where('heartbeat_at', '>=', deadBefore).execute()).map((r) => r.id),
    );
    alive.add(this.instanceId);
    const orphans = (await this.db.selectFrom('pending_objects').selectAll().execute()).filter((p) => !alive.has(p.instance_id));
    for (const o of orphans) {
      try {
        await this.storage.delete(o.bucket, o.key);
        await this.db.deleteFrom('pending_objects').where('bucket', '=', o.bucket).where('key', '=', o.key).execute();
      } catch (err) {
        this.log(`could not remove orphan ${o.bucket}/${o.key}`, err);
      }
    }
    const dead = (await this.db.selectFrom('server_instances').select('id').execute()).map((r) => r.id).filter((id) => !alive.has(id));
    if (dead.length > 0) await this.db.deleteFrom('server_instances').where('id', 'in', dead).execute();
    for (const dir of await readdir(this.tmpRoot).catch(() => [] as string[])) {
      if (!alive.has(dir)) await rm(path.join(this.tmpRoot, dir), { recursive: true, force: true });
    }
    return orphans.length;
  }
}
