/**
 * Object storage behind one interface. Keys are always made by the server (newKey), so a
 * client can never choose where a file lands or read outside a bucket.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { StorageBucket } from '../../../shared/constants.ts';

export interface StoredObject {
  size: number;
  contentType: string;
  modifiedAt: Date;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export interface ObjectStorage {
  readonly kind: string;
  /** Stores a whole object atomically: readers see the old object or the new one, never a part. */
  put(bucket: StorageBucket, key: string, body: Readable | Buffer): Promise<StoredObject>;
  /** Stores a local file, taking it over (it is moved or deleted); cheaper than put for large files. */
  putFile(bucket: StorageBucket, key: string, file: string): Promise<StoredObject>;
  stat(bucket: StorageBucket, key: string): Promise<StoredObject | null>;
  read(bucket: StorageBucket, key: string, range?: ByteRange): Promise<Readable>;
  delete(bucket: StorageBucket, key: string): Promise<void>;
  list(bucket: StorageBucket): AsyncIterable<string>;
  /** The object as a file on this machine, when the storage keeps it as one (else null). */
  localPath(bucket: StorageBucket, key: string): string | null;
  /** Throws when the storage cannot be written. */
  check(): Promise<void>;
}

export const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export type StorageExtension = keyof typeof CONTENT_TYPES;

/** Keys look like `ab/abcdef01-...-....ext` (or `demo/name.ext` for seeded media). */
const KEY = /^[a-z0-9][a-z0-9-]{0,62}\/[a-z0-9][a-z0-9-]{0,80}\.(mp4|webm|jpg|png|webp)$/;

export function isValidKey(key: string): boolean {
  return KEY.test(key);
}

export function newKey(extension: StorageExtension): string {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id}.${extension}`;
}

export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

export class StorageKeyError extends Error {
  override name = 'StorageKeyError';
}
