/**
 * Object storage on the local filesystem under <dataDir>/storage/<bucket>/<key>. Writes go to
 * a temporary file first and are renamed into place, so a crash never leaves half a file
 * under a real key; a start-up sweep removes temporary files a crash left behind.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { STORAGE_BUCKETS, type StorageBucket } from '../../../shared/constants.ts';
import {
  contentTypeOf,
  isValidKey,
  StorageKeyError,
  type ByteRange,
  type ObjectStorage,
  type StoredObject,
} from '../../platform/storage/object-storage.ts';

export class LocalStorage implements ObjectStorage {
  readonly kind = 'local';
  readonly #root: string;
  readonly #tmp: string;

  private constructor(root: string) {
    this.#root = root;
    this.#tmp = path.join(root, '.tmp');
  }

  static async open(root: string): Promise<LocalStorage> {
    const storage = new LocalStorage(root);
    await rm(storage.#tmp, { recursive: true, force: true });
    await mkdir(storage.#tmp, { recursive: true });
    for (const bucket of STORAGE_BUCKETS) await mkdir(path.join(root, bucket), { recursive: true });
    return storage;
  }

  #path(bucket: StorageBucket, key: string): string {
    if (!STORAGE_BUCKETS.includes(bucket) || !isValidKey(key)) throw new StorageKeyError(`Invalid object key: ${key}`);
    return path.join(this.#root, bucket, key);
  }

  async put(bucket: StorageBucket, key: string, body: Readable | Buffer): Promise<StoredObject> {
    const target = this.#path(bucket, key);
    const tmp = path.join(this.#tmp, randomUUID());
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp, { flags: 'wx' }));
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const info = await this.stat(bucket, key);
    if (!info) throw new Error(`Stored object vanished: ${bucket}/${key}`);
    return info;
  }

  async putFile(bucket: StorageBucket, key: string, file: string): Promise<StoredObject> {
    const target = this.#path(bucket, key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(file, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await this.put(bucket, key, createReadStream(file));
      await rm(file, { force: true });
    }
    const info = await this.stat(bucket, key);
    if (!info) throw new Error(`Stored object vanished: ${bucket}/${key}`);
    return info;
  }

  async stat(bucket: StorageBucket, key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(this.#path(bucket, key));
      return s.isFile() ? { size: s.size, contentType: contentTypeOf(key), modifiedAt: s.mtime } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async read(bucket: StorageBucket, key: string, range?: ByteRange): Promise<Readable> {
    const file = this.#path(bucket, key);
    const stream = createReadStream(file, range ? { start: range.start, end: range.end } : {});
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async delete(bucket: StorageBucket, key: string): Promise<void> {
    await rm(this.#path(bucket, key), { force: true });
  }

  async *list(bucket: StorageBucket): AsyncIterable<string> {
    const base = path.join(this.#root, bucket);
    for (const dir of await readdir(base, { withFileTypes: true })) {
      if (!dir.isDirectory()) continue;
      for (const file of await readdir(path.join(base, dir.name))) yield `${dir.name}/${file}`;
    }
  }

  localPath(bucket: StorageBucket, key: string): string {
    return this.#path(bucket, key);
  }

  async check(): Promise<void> {
    await access(this.#tmp, constants.W_OK);
  }
}
