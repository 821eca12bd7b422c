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
import type { DB } from '../db/schema.ts';
import type { ObjectStorage } from './object-storage.ts';
import {
  allPending,
  beatHeartbeat,
  deleteInstances,
  deletePending,
  insertPending,
  instanceIds,
  pendingOf,
  retirePending,
  registerInstance,
  unregisterInstance,
  type StoredFile,
} from './repository.ts';

export type { StoredFile } from './repository.ts';

/**
 * The instance the database retires a withdrawn product's frames under (0020_withdrawn_merch.sql).
 * It never runs, so every sweep removes them; removeWithdrawnFrames does it at once.
 */
export const WITHDRAWN_MERCH_INSTANCE = 'withdrawn-merch';

/** Removes the frames the database retired when their products were withdrawn, without waiting for a sweep. */
export async function removeWithdrawnFrames(db: Kysely<DB>, storage: ObjectStorage): Promise<number> {
  const files = await pendingOf(db, WITHDRAWN_MERCH_INSTANCE);
  for (const f of files) {
    await storage.delete(f.bucket, f.key);
    await deletePending(db, f);
  }
  return files.length;
}

const HEARTBEAT_MS = 10_000;
const DEAD_AFTER_MS = 45_000;

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
    await registerInstance(this.db, this.instanceId);
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
    await beatHeartbeat(this.db, this.instanceId);
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await rm(this.tmpDir, { recursive: true, force: true });
    await unregisterInstance(this.db, this.instanceId).catch((err) => this.log('could not unregister this process', err));
  }

  /** Announces files about to be written. */
  async announce(files: StoredFile[]): Promise<void> {
    if (files.length === 0) return;
    await insertPending(this.db, files, this.instanceId);
  }

  /** Inside the transaction that commits the owning row: the files are no longer pending. */
  async release(trx: Transaction<DB>, files: StoredFile[]): Promise<void> {
    for (const f of files) await deletePending(trx, f);
  }

  /**
   * Inside the transaction that deletes or replaces the owning row: its files become pending, so
   * they are removed once committed (discard) or, if this process dies first, by the sweep.
   */
  async retire(trx: Transaction<DB>, files: StoredFile[]): Promise<void> {
    if (files.length > 0) await retirePending(trx, files, this.instanceId);
  }

  /** Deletes announced files and their announcements (a failed upload, or a deleted row's files). */
  async discard(files: StoredFile[]): Promise<void> {
    for (const f of files) {
      await this.storage.delete(f.bucket, f.key);
      await deletePending(this.db, f);
    }
  }

  /** See removeWithdrawnFrames. */
  async removeWithdrawnFrames(): Promise<number> {
    return removeWithdrawnFrames(this.db, this.storage);
  }

  /** Removes what dead processes left: announced files, and temporary folders. */
  async sweep(everyOtherInstanceIsDead: boolean): Promise<number> {
    const deadBefore = new Date(Date.now() - DEAD_AFTER_MS);
    const alive = new Set(everyOtherInstanceIsDead ? [] : await instanceIds(this.db, deadBefore));
    alive.add(this.instanceId);
    const orphans = (await allPending(this.db)).filter((p) => !alive.has(p.instance_id));
    for (const o of orphans) {
      try {
        await this.storage.delete(o.bucket, o.key);
        await deletePending(this.db, o);
      } catch (err) {
        this.log(`could not remove orphan ${o.bucket}/${o.key}`, err);
      }
    }
    const dead = (await instanceIds(this.db)).filter((id) => !alive.has(id));
    await deleteInstances(this.db, dead);
    for (const dir of await readdir(this.tmpRoot).catch(() => [] as string[])) {
      if (!alive.has(dir)) await rm(path.join(this.tmpRoot, dir), { recursive: true, force: true });
    }
    return orphans.length;
  }
}
