/**
 * Where resumable (tus) uploads keep their bytes: a FileStore folder of `<id>` (the bytes so far)
 * and `<id>.json` (the declared size, the metadata, and the owner this server wrote there at
 * creation). The first bytes are recognised as they arrive (an MP4 or WebM, as a direct upload's
 * are), and an upload that is not a video is removed at once. An upload no request has touched
 * for RESUMABLE_UPLOAD.expiryHours (by the app's clock) is removed by sweepExpired(); one being
 * turned into a video is claimed, so neither the sweep nor a DELETE takes it from under the finish.
 *
 * The folder is this machine's: every process that serves /api/uploads must share it (one data
 * folder), and tus's lock is held in memory, so one process serves an upload at a time.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
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

/**
 * A FileStore that looks at the first bytes of an upload as they arrive; anything but an MP4 or
 * WebM stops the request and removes the upload with its bytes.
 */
class VideoFileStore extends FileStore {
  constructor(
    directory: string,
    private readonly refuse: () => TusRefusal,
  ) {
    super({ directory });
    // No deferred length (Upload-Length is required) and no tus-side expiry: uploads expire by
    // the app's clock after their last write (sweepExpired), not after their creation.
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    if (!UPLOAD_ID.test(id)) throw new TusRefusal(404, 'NOT_FOUND', 'Upload not found.');
    const file = path.join(this.directory, id);
    let head = offset > 0 && offset < SNIFF_BYTES ? await readHead(file, offset) : Buffer.alloc(0);
    let judged = offset >= SNIFF_BYTES;
    const refuse = this.refuse;
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

export class ResumableUploads {
  readonly store: VideoFileStore;
  readonly #finishing = new Set<string>();
  /** Uploads a request is writing to now (how many requests), which a sweep leaves alone. */
  readonly #writing = new Map<string, number>();

  private constructor(
    readonly dir: string,
    refuse: () => TusRefusal,
  ) {
    this.store = new VideoFileStore(dir, refuse);
  }

  /** Opens (making it if needed) the folder; `refuse` is the answer to bytes that are not a video. */
  static async open(dir: string, refuse: () => TusRefusal): Promise<ResumableUploads> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new ResumableUploads(dir, refuse);
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
   * Marks the upload as being written to until the answer is released; then stamps its files with
   * `now()` (the app's clock), the time its expiry counts from. The files' own times are the
   * system's, which the app's clock runs ahead of once a test has moved it.
   */
  writing(id: string, now: () => Date): () => Promise<void> {
    this.#writing.set(id, (this.#writing.get(id) ?? 0) + 1);
    return async () => {
      const left = (this.#writing.get(id) ?? 1) - 1;
      if (left > 0) this.#writing.set(id, left);
      else this.#writing.delete(id);
      await this.stamp(id, now());
    };
  }

  /** Sets the upload's files' times to `at` (a missing file is left missing). */
  async stamp(id: string, at: Date): Promise<void> {
    if (!UPLOAD_ID.test(id)) return;
    await Promise.all([utimes(path.join(this.dir, id), at, at), utimes(path.join(this.dir, `${id}.json`), at, at)].map((p) => p.catch(() => undefined)));
  }

  isClaimed(id: string): boolean {
    return this.#finishing.has(id);
  }

  /** Holds the upload for its finish; answers the release, or null when it is already held. */
  claim(id: string): (() => void) | null {
    if (this.#finishing.has(id)) return null;
    this.#finishing.add(id);
    return () => this.#finishing.delete(id);
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
   * broken one (what a crash left: see BROKEN_AFTER_MS) older than `brokenAfterMs`. Answers how
   * many uploads went.
   */
  async sweepExpired(now: Date, maxAgeMs: number, brokenAfterMs = BROKEN_AFTER_MS): Promise<number> {
    let removed = 0;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => (n.endsWith('.json') ? n.slice(0, -'.json'.length) : n)).filter((id) => UPLOAD_ID.test(id)));
    for (const id of ids) {
      if (this.#finishing.has(id) || this.#writing.has(id)) continue;
      const broken = await this.#broken(id, names);
      const info = broken ? null : await this.find(id);
      let touched = info?.touchedAt.getTime();
      if (touched === undefined) {
        const one = await stat(path.join(this.dir, names.includes(id) ? id : `${id}.json`)).catch(() => null);
        touched = one?.mtimeMs ?? 0;
      }
      if (touched < now.getTime() - (broken ? Math.min(brokenAfterMs, maxAgeMs) : maxAgeMs)) {
        await removeFiles(this.dir, id);
        removed++;
      }
    }
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
