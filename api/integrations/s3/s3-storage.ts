/**
 * Object storage on an S3-compatible service (AWS S3, MinIO, Ceph, R2...), path-style, with
 * SigV4 signing. One S3 bucket holds the app's buckets as key prefixes: <bucket>/<key>.
 * Browsers read objects by signed URLs on the public origin (a CDN, or the endpoint itself).
 */
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient, AwsV4Signer } from 'aws4fetch';
import { STORAGE_BUCKETS, type StorageBucket } from '../../../shared/constants.ts';
import {
  contentTypeOf,
  isValidKey,
  StorageKeyError,
  type ByteRange,
  type ObjectStorage,
  type SignedUrlOptions,
  type StoredObject,
} from '../../platform/storage/object-storage.ts';

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where browsers reach the endpoint (a CDN in front of it); signed URLs are signed for it. Default: endpoint. */
  publicUrl?: string;
}

/** put() collects a stream before sending it (S3 wants the length); big files go through putFile(). */
const MAX_BUFFERED_PUT = 64 * 1024 * 1024;

export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  readonly #aws: AwsClient;
  readonly #base: string;
  readonly #publicBase: string;

  constructor(opts: S3Options) {
    this.#aws = new AwsClient({ accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey, region: opts.region, service: 's3' });
    this.#base = `${opts.endpoint.replace(/\/+$/, '')}/${opts.bucket}`;
    this.#publicBase = `${(opts.publicUrl ?? opts.endpoint).replace(/\/+$/, '')}/${opts.bucket}`;
  }

  #url(bucket: StorageBucket, key: string, base = this.#base): string {
    if (!STORAGE_BUCKETS.includes(bucket) || !isValidKey(key)) throw new StorageKeyError(`Invalid object key: ${key}`);
    return `${base}/${bucket}/${key}`;
  }

  async #send(url: string, init: RequestInit & { duplex?: 'half' }, ok: number[]): Promise<Response> {
    const res = await this.#aws.fetch(url, init);
    if (!ok.includes(res.status)) {
      const text = await res.text().catch(() => '');
      throw new Error(`S3 ${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 200)}`);
    }
    return res;
  }

  async put(bucket: StorageBucket, key: string, body: Readable | Buffer): Promise<StoredObject> {
    let data: Buffer;
    if (Buffer.isBuffer(body)) data = body;
    else {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > MAX_BUFFERED_PUT) throw new Error('Stream too large for put(); use putFile()');
        chunks.push(chunk);
      }
      data = Buffer.concat(chunks);
    }
    const view = new Uint8Array(data);
    await this.#send(this.#url(bucket, key), { method: 'PUT', body: view, headers: { 'content-type': contentTypeOf(key) } }, [200]);
    return { size: data.length, contentType: contentTypeOf(key), modifiedAt: new Date() };
  }

  async putFile(bucket: StorageBucket, key: string, file: string): Promise<StoredObject> {
    const { size } = await stat(file);
    await this.#send(
      this.#url(bucket, key),
      {
        method: 'PUT',
        body: Readable.toWeb(createReadStream(file)) as ReadableStream,
        duplex: 'half',
        headers: { 'content-type': contentTypeOf(key), 'content-length': String(size) },
      },
      [200],
    );
    await rm(file, { force: true });
    return { size, contentType: contentTypeOf(key), modifiedAt: new Date() };
  }

  async stat(bucket: StorageBucket, key: string): Promise<StoredObject | null> {
    const res = await this.#send(this.#url(bucket, key), { method: 'HEAD' }, [200, 404]);
    if (res.status === 404) return null;
    return {
      size: Number(res.headers.get('content-length') ?? 0),
      contentType: contentTypeOf(key),
      modifiedAt: new Date(res.headers.get('last-modified') ?? Date.now()),
    };
  }

  async read(bucket: StorageBucket, key: string, range?: ByteRange): Promise<Readable> {
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
    const res = await this.#send(this.#url(bucket, key), { method: 'GET', headers }, [200, 206]);
    if (!res.body) return Readable.from([]);
    return Readable.fromWeb(res.body as WebReadableStream);
  }

  async delete(bucket: StorageBucket, key: string): Promise<void> {
    await this.#send(this.#url(bucket, key), { method: 'DELETE' }, [200, 204, 404]);
  }

  async *list(bucket: StorageBucket): AsyncIterable<string> {
    let token: string | null = null;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix: `${bucket}/` });
      if (token) query.set('continuation-token', token);
      const xml = await (await this.#send(`${this.#base}?${query}`, { method: 'GET' }, [200])).text();
      for (const m of xml.matchAll(/<Key>([^<]+)<\/Key>/g)) yield m[1]!.slice(bucket.length + 1);
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? (/<NextContinuationToken>([^<]+)</.exec(xml)?.[1] ?? null) : null;
    } while (token);
  }

  /** A presigned GET on the public origin; the same time and lifetime always give the same URL. */
  async signedUrl(bucket: StorageBucket, key: string, { signedAt, expiresInSeconds }: SignedUrlOptions): Promise<string> {
    const url = new URL(this.#url(bucket, key, this.#publicBase));
    url.searchParams.set('X-Amz-Expires', String(expiresInSeconds));
    const signer = new AwsV4Signer({
      method: 'GET',
      url: url.toString(),
      accessKeyId: this.#aws.accessKeyId,
      secretAccessKey: this.#aws.secretAccessKey,
      region: this.#aws.region,
      service: 's3',
      cache: this.#aws.cache,
      signQuery: true,
      // SigV4's basic format, to the second: 20250102T030405Z.
      datetime: signedAt.toISOString().replace(/[:-]|\.\d{3}/g, ''),
    });
    return (await signer.sign()).url.toString();
  }

  localPath(): null {
    return null;
  }

  async check(): Promise<void> {
    await this.#send(this.#base, { method: 'HEAD' }, [200]);
  }
}
