/**
 * One contract, both object stores: the local filesystem and an S3-compatible server (s3rver,
 * a real S3 API on this machine's loopback, signatures checked).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage.ts';
import { newKey, type ObjectStorage } from '../../platform/storage/object-storage.ts';
import { S3Storage } from './s3-storage.ts';

let s3server: S3rver;
let dirs: string[] = [];
const stores: Record<string, () => Promise<ObjectStorage>> = {};

beforeAll(async () => {
  const s3dir = await mkdtemp(path.join(os.tmpdir(), 'fm-s3-'));
  dirs.push(s3dir);
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'framemerch', configs: [] }] });
  const { port } = await s3server.run();
  stores.s3 = async () => new S3Storage({ endpoint: `http://127.0.0.1:${port}`, bucket: 'framemerch', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
  stores.local = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fm-local-'));
    dirs.push(dir);
    return LocalStorage.open(dir);
  };
});

afterAll(async () => {
  await s3server?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});

const text = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

for (const kind of ['local', 's3']) {
  describe(`${kind} object storage`, () => {
    it('stores, describes, reads whole and by range, lists and deletes', async () => {
      const storage = await stores[kind]!();
      await storage.check();
      const key = newKey('mp4');
      const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256));
      const put = await storage.put('videos', key, bytes);
      expect(put.size).toBe(3000);
      const info = await storage.stat('videos', key);
      expect(info).toMatchObject({ size: 3000, contentType: 'video/mp4' });
      expect(Buffer.compare(await text(await storage.read('videos', key)), bytes)).toBe(0);
      expect(Buffer.compare(await text(await storage.read('videos', key, { start: 1000, end: 1099 })), bytes.subarray(1000, 1100))).toBe(0);
      const listed: string[] = [];
      for await (const k of storage.list('videos')) listed.push(k);
      expect(listed).toContain(key);
      expect(await storage.stat('thumbnails', key)).toBeNull();
      await storage.delete('videos', key);
      expect(await storage.stat('videos', key)).toBeNull();
      await storage.delete('videos', key);
    });

    it('takes over a local file with putFile', async () => {
      const storage = await stores[kind]!();
      const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'fm-file-')), 'clip.upload');
      await writeFile(file, Buffer.alloc(12345, 3));
      const key = newKey('webm');
      expect((await storage.putFile('videos', key, file)).size).toBe(12345);
      expect((await storage.stat('videos', key))?.contentType).toBe('video/webm');
      await expect(import('node:fs/promises').then((fs) => fs.stat(file))).rejects.toThrow();
    });

    it('refuses keys it did not make', async () => {
      const storage = await stores[kind]!();
      for (const key of ['../../etc/passwd', 'ab/../../x.mp4', 'ab/x.html', '/abs.mp4', 'ab\\x.mp4']) {
        await expect(storage.put('videos', key, Buffer.from('x')), key).rejects.toThrow(/Invalid object key/);
      }
    });
  });
}
