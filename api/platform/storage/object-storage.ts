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

/** A signed URL's moment of signing and how long after it the URL works. */
export interface SignedUrlOptions {
  signedAt: Date;
  expiresInSeconds: number;
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
  /**
   * A URL that reads the object from the store itself, Range requests included, without this
   * server; absent when the store has none (the local store: the media route serves the bytes).
   */
  signedUrl?(bucket: StorageBucket, key: string, opts: SignedUrlOptions): Promise<string>;
  /** The object as a file on this machine, when the storage keeps it as one (else null). */
  localPath(bucket: StorageBucket, key: string): string | null;
  /** Throws when the storage cannot be written. */
  check(): Promise<void>;
}

const HOUR_SECONDS = 3600;

/**
 * How an object anyone may see is signed: as of the start of the current hour, good until the
 * end of the next one. Every request within an hour gets the very same URL, so browsers and a
 * CDN can cache it, and a URL handed out in the hour's last second still works for an hour.
 * `freshForSeconds` is how long that URL may be handed out again: the rest of its hour.
 */
export function hourlySigning(now: Date): SignedUrlOptions & { freshForSeconds: number } {
  const seconds = Math.floor(now.getTime() / 1000);
  const hourStart = seconds - (seconds % HOUR_SECONDS);
  return { signedAt: new Date(hourStart * 1000), expiresInSeconds: 2 * HOUR_SECONDS, freshForSeconds: hourStart + HOUR_SECONDS - seconds };
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
