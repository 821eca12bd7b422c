/**
 * Where resumable (tus) uploads keep their bytes: a FileStore folder of `<id>` (the bytes so far)
 * and `<id>.json` (the declared size, the metadata, and the owner this server wrote there at
 * creation). The first bytes are recognised as they arrive (an MP4 or WebM, as a direct upload's
 * are), and an upload that is not a video is removed at once. An upload no request has touched
 * for RESUMABLE_UPLOAD.expiryHours (by the app's clock) is removed by sweepExpired(); one being
 * turned into a video is claimed, so neither the sweep nor a DELETE takes it from under the finish.
 *
 * The folder is this machine's: every process that serves /api/uploads must share it (one data
 * folder). What the processes must agree on is held in leases (platform/db/leases.ts), two per
 * upload: `upload:<id>:finish` (a finish or a DELETE holds it, and a PATCH meanwhile answers busy)
 * and `upload:<id>:lock` (tus's lock: one request at a time reads, writes or removes the upload; a
 * PATCH holds it from its start until tus has written). A sweep leaves alone an upload with either
 * held.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS, type Lock, type Locker, type RequestRelease, type Upload } from '@tus/server';
import type { Kysely } from 'kysely';
import { Leases, type Lease } from '../../platform/db/leases.ts';
import type { DB } from '../../platform/db/schema.ts';
import { SNIFF_BYTES, sniffVideo, type VideoContainer } from '../../platform/media/sniff.ts';

/** Upload ids are made here (namingFunction): 32 lowercase hex digits, never a client's choice. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
export const newUploadId = () => randomBytes(16).toString('hex');

/**
 * How old a broken upload (one of its two files without the other, or a .json that is not JSON)
 * must be before a sweep removes it. A creation writes both files within moments, so one broken
 * for longer is what a crash in the middle of a creation (or a removal) left: no request can use
 * it, and nobody can resume it.
 */
export const BROKEN_AFTER_MS = 60_000;

/**
 * How long a lease on an upload outlives a process that stopped renewing it (it died): until then
 * the upload stays held, and the sweep leaves it alone.
 */
const UPLOAD_LEASE_MS = 10_000;

/** How long a request waits for another request's hold on tus's lock before answering 409 (tus's own default). */
const LOCK_WAIT_MS = 30_000;
/** How long a creation waits for the creator's other creation (longer than a dead process's turn lasts). */
const CREATE_WAIT_MS = 15_000;

const leasesOf = (id: string) => `upload:${id}:`;
const finishKey = (id: string) => `${leasesOf(id)}finish`;
const lockKey = (id: string) => `${leasesOf(id)}lock`;

/** The metadata key that holds the owner's user id; the server writes it, a client's value is dropped. */
export const OWNER_KEY = 'fm_owner';

export interface UploadInfo {
  id: string;
  owner: string | null;
  size: number | null;
  /** Bytes stored so far. */
  offset: number;
  /** The last time a request wrote to the upload (or created it). */
  touchedAt: Date;
}

/** A refusal tus sends as it is (status and message), answered as the app's JSON error. */
export class TusRefusal extends Error {
  override name = 'TusRefusal';
  constructor(
    readonly status_code: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  get body(): string {
    return this.message;
  }
}

/** What the store answers with, or tells, as uploads come. */
export interface UploadHooks {
  /** The answer to first bytes that are not a video. */
  refuse: () => TusRefusal;
  /** Called once a new upload's files are on disk (where list() counts it). */
  created: (id: string) => Promise<void>;
  /** Told when a lease could not be renewed or released. */
  log: (msg: string, err: unknown) => void;
}

/**
 * A FileStore that looks at the first bytes of an upload as they arrive; anything but an MP4 or
 * WebM stops the request and removes the upload with its bytes.
 */
class VideoFileStore extends FileStore {
  constructor(
    directory: string,
    private readonly hooks: UploadHooks,
  ) {
    super({ directory });
    // No deferred length (Upload-Length is required) and no tus-side expiry: uploads expire by
    // the app's clock after their last write (sweepExpired), not after their creation.
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const made = await super.create(upload);
    await this.hooks.created(upload.id);
    return made;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    if (!UPLOAD_ID.test(id)) throw new TusRefusal(404, 'NOT_FOUND', 'Upload not found.');
    const file = path.join(this.directory, id);
    let head = offset > 0 && offset < SNIFF_BYTES ? await readHead(file, offset) : Buffer.alloc(0);
    let judged = offset >= SNIFF_BYTES;
    const refuse = this.hooks.refuse;
    const sniffer = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (!judged) {
          head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
          if (head.length >= SNIFF_BYTES) {
            judged = true;
            if (!sniffVideo(head)) return done(refuse());
          }
        }
        done(null, chunk);
      },
    });
    const sink = createWriteStream(file, { flags: 'r+', start: offset, highWaterMark: 1024 * 1024 });
    try {
      await pipeline(readable, sniffer, sink);
    } catch (err) {
      if (err instanceof TusRefusal && err.status_code === 415) {
        await removeFiles(this.directory, id);
      }
      // A client that went away is recognised by tus from its own error; a disk error is a 500.
      throw err;
    }
    return offset + sink.bytesWritten;
  }
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function removeFiles(dir: string, id: string): Promise<void> {
  await rm(path.join(dir, id), { force: true });
  await rm(path.join(dir, `${id}.json`), { force: true });
}

/**
 * tus's lock on an upload as a lease, so that one request at a time, on whichever process, works on
 * an upload. A request that finds it held waits; when the holder is a request of this process it
 * is asked to let go, as tus's own in-memory lock does (tus ends it after a short drain). A request
 * that took the lock before tus (holding()) hands it to tus, which releases it as its own.
 */
class LeaseLocker implements Locker {
  /** How to ask each request of this process that holds an upload's lock in tus to let go, by upload. */
  readonly #letGo = new Map<string, RequestRelease>();
  /** The lock the request being served took before tus, until tus takes it over. */
  readonly #taken = new AsyncLocalStorage<{ id: string; lease: Lease | null }>();

  constructor(private readonly leases: Leases) {}

  /** The upload's lock once it is free, or null when another request keeps it past the wait. */
  take(id: string, signal?: AbortSignal): Promise<Lease | null> {
    return this.leases.acquireWithin(lockKey(id), UPLOAD_LEASE_MS, { waitMs: LOCK_WAIT_MS, signal, onHeld: () => void this.#letGo.get(id)?.() });
  }

  /** Runs `fn` with the upload's lock, taken by the caller, for tus to take over; released at the end if tus did not. */
  async handOver(id: string, lease: Lease, fn: () => Promise<void>): Promise<void> {
    const taken = { id, lease: lease as Lease | null };
    try {
      await this.#taken.run(taken, fn);
    } finally {
      await taken.lease?.release();
    }
  }

  newLock(id: string): Lock {
    let lease: Lease | null = null;
    let asker: RequestRelease | null = null;
    return {
      lock: async (signal, requestRelease) => {
        const taken = this.#taken.getStore();
        if (taken?.id === id && taken.lease) {
          lease = taken.lease;
          taken.lease = null;
        } else {
          lease = await this.take(id, signal);
          if (!lease) throw ERRORS.ERR_LOCK_TIMEOUT;
        }
        asker = requestRelease;
        this.#letGo.set(id, requestRelease);
      },
      unlock: async () => {
        if (this.#letGo.get(id) === asker) this.#letGo.delete(id);
        await lease?.release();
        lease = null;
      },
    };
  }
}

export class ResumableUploads {
  readonly store: VideoFileStore;
  /** tus's lock (the Server's `locker`). */
  readonly locker: LeaseLocker;

  private constructor(
    readonly dir: string,
    hooks: UploadHooks,
    private readonly leases: Leases,
  ) {
    this.store = new VideoFileStore(dir, hooks);
    this.locker = new LeaseLocker(leases);
  }

  /** Opens (making it if needed) the folder; its leases are `holder`'s (this process's server_instances id). */
  static async open(dir: string, hooks: UploadHooks, db: Kysely<DB>, holder: string): Promise<ResumableUploads> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new ResumableUploads(dir, hooks, new Leases(db, holder, hooks.log));
  }

  /**
   * The creator's turn to create an upload, once their other creation (on any process) has its
   * files on disk or has failed; null when it does not come in time.
   */
  creationTurn(userId: string): Promise<Lease | null> {
    return this.leases.acquireWithin(`uploads:create:${userId}`, UPLOAD_LEASE_MS, { waitMs: CREATE_WAIT_MS });
  }

  /** The upload, or null when there is none (or the id is not one this server makes). */
  async find(id: string): Promise<UploadInfo | null> {
    if (!UPLOAD_ID.test(id)) return null;
    try {
      const infoFile = path.join(this.dir, `${id}.json`);
      const [raw, data, meta] = await Promise.all([readFile(infoFile, 'utf8'), stat(path.join(this.dir, id)), stat(infoFile)]);
      const parsed = JSON.parse(raw) as { size?: unknown; metadata?: Record<string, unknown> | null };
      const owner = parsed.metadata?.[OWNER_KEY];
      return {
        id,
        owner: typeof owner === 'string' ? owner : null,
        size: typeof parsed.size === 'number' ? parsed.size : null,
        offset: data.size,
        touchedAt: new Date(Math.max(data.mtimeMs, meta.mtimeMs)),
      };
    } catch {
      return null;
    }
  }

  /** The user's upload, or null: someone else's is as missing as one that does not exist. */
  async findOwn(id: string, userId: string): Promise<UploadInfo | null> {
    const info = await this.find(id);
    return info && info.owner === userId ? info : null;
  }

  /** Every upload here (ids with their info file). */
  async list(): Promise<UploadInfo[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const found = await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => this.find(n.slice(0, -'.json'.length))));
    return found.filter((u): u is UploadInfo => u !== null);
  }

  /** How many uploads the user holds (unfinished, or complete and not yet turned into a video). */
  async countOf(userId: string): Promise<number> {
    return (await this.list()).filter((u) => u.owner === userId).length;
  }

  /** The container its first bytes name, or null. */
  async containerOf(id: string): Promise<VideoContainer | null> {
    if (!UPLOAD_ID.test(id)) return null;
    return sniffVideo(await readHead(path.join(this.dir, id), SNIFF_BYTES).catch(() => Buffer.alloc(0)));
  }

  async remove(id: string): Promise<void> {
    if (UPLOAD_ID.test(id)) await removeFiles(this.dir, id);
  }

  /**
   * Runs `fn` holding the upload's lock, taken before anything else so that requests are served
   * in the order they came (a PATCH cut short still goes before the HEAD its client sends next);
   * tus's own locking inside `fn` takes this hold over. Answers false, without running `fn`, when
   * another request keeps the lock past the wait.
   */
  async holding(id: string, fn: () => Promise<void>): Promise<boolean> {
    const lease = await this.locker.take(id);
    if (!lease) return false;
    await this.locker.handOver(id, lease, fn);
    return true;
  }

  /** Sets the upload's files' times to `at` (a missing file is left missing). */
  async stamp(id: string, at: Date): Promise<void> {
    if (!UPLOAD_ID.test(id)) return;
    await Promise.all([utimes(path.join(this.dir, id), at, at), utimes(path.join(this.dir, `${id}.json`), at, at)].map((p) => p.catch(() => undefined)));
  }

  /** Whether a finish or a DELETE holds the upload, on any process. */
  isClaimed(id: string): Promise<boolean> {
    return this.leases.isHeld(finishKey(id));
  }

  /** Holds the upload for its finish (or removal); answers the release, or null when it is already held. */
  async claim(id: string): Promise<(() => Promise<void>) | null> {
    const lease = await this.leases.acquire(finishKey(id), UPLOAD_LEASE_MS);
    return lease && (() => lease.release());
  }

  /**
   * A file in `dir` with the upload's bytes, for the video's checks and storage to move or remove
   * as they please while the upload keeps its own: a hard link (same disk, no copy), else a copy.
   */
  async linkInto(id: string, dir: string): Promise<string> {
    const target = path.join(dir, `${newUploadId()}.upload`);
    const source = path.join(this.dir, id);
    try {
      await link(source, target);
    } catch {
      await copyFile(source, target);
    }
    return target;
  }

  /**
   * Removes every upload not written to for `maxAgeMs` before `now` (the app's clock), and every
   * broken one (what a crash left: see BROKEN_AFTER_MS) older than `brokenAfterMs`, unless a
   * request on any process holds it; then forgets the expired leases dead processes left. Answers
   * how many uploads went.
   */
  async sweepExpired(now: Date, maxAgeMs: number, brokenAfterMs = BROKEN_AFTER_MS): Promise<number> {
    let removed = 0;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => (n.endsWith('.json') ? n.slice(0, -'.json'.length) : n)).filter((id) => UPLOAD_ID.test(id)));
    for (const id of ids) {
      const broken = await this.#broken(id, names);
      const info = broken ? null : await this.find(id);
      let touched = info?.touchedAt.getTime();
      if (touched === undefined) {
        const one = await stat(path.join(this.dir, names.includes(id) ? id : `${id}.json`)).catch(() => null);
        touched = one?.mtimeMs ?? 0;
      }
      const old = touched < now.getTime() - (broken ? Math.min(brokenAfterMs, maxAgeMs) : maxAgeMs);
      if (old && !(await this.leases.isAnyHeld(leasesOf(id)))) {
        await removeFiles(this.dir, id);
        removed++;
      }
    }
    await this.leases.forgetExpired();
    return removed;
  }

  /** One of its files without the other, or a .json that is not JSON (a read that fails otherwise proves nothing). */
  async #broken(id: string, names: string[]): Promise<boolean> {
    if (!names.includes(id) || !names.includes(`${id}.json`)) return true;
    try {
      JSON.parse(await readFile(path.join(this.dir, `${id}.json`), 'utf8'));
      return false;
    } catch (err) {
      return err instanceof SyntaxError;
    }
  }
}
