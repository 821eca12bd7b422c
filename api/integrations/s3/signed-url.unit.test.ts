/**
 * Signed URLs for objects anyone may see are signed as of the start of the hour, so every
 * request within an hour gets the same URL (browsers and a CDN cache it). Signing needs no
 * network: these never reach a server.
 */
import { describe, expect, it } from 'vitest';
import { hourlySigning } from '../../platform/storage/object-storage.ts';
import { S3Storage } from './s3-storage.ts';

const storage = new S3Storage({
  endpoint: 'http://s3.internal:9000',
  publicUrl: 'https://cdn.example.com/',
  bucket: 'framemerch',
  region: 'eu-west-1',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
});
const key = 'ab/ab12cd34-0000-4000-8000-000000000000.mp4';
const hourlyUrl = (at: string) => storage.signedUrl('videos', key, hourlySigning(new Date(at)));

describe('hourlySigning', () => {
  it('signs as of the hour, good to the end of the next one, handed out again for the rest of the hour', () => {
    expect(hourlySigning(new Date('2025-01-02T10:00:00.000Z'))).toEqual({ signedAt: new Date('2025-01-02T10:00:00Z'), expiresInSeconds: 7200, freshForSeconds: 3600 });
    expect(hourlySigning(new Date('2025-01-02T10:30:00.500Z'))).toMatchObject({ signedAt: new Date('2025-01-02T10:00:00Z'), freshForSeconds: 1800 });
    expect(hourlySigning(new Date('2025-01-02T10:59:59.999Z'))).toMatchObject({ signedAt: new Date('2025-01-02T10:00:00Z'), freshForSeconds: 1 });
    expect(hourlySigning(new Date('2025-01-02T23:59:59Z')).signedAt).toEqual(new Date('2025-01-02T23:00:00Z'));
  });
});

describe('S3Storage.signedUrl', () => {
  it('gives every request within an hour the very same URL, and a new one the next hour', async () => {
    const first = await hourlyUrl('2025-01-02T10:00:00.000Z');
    expect(await hourlyUrl('2025-01-02T10:17:45.123Z')).toBe(first);
    expect(await hourlyUrl('2025-01-02T10:59:59.999Z')).toBe(first);
    expect(await hourlyUrl('2025-01-02T11:00:00.000Z')).not.toBe(first);
  });

  it('presigns a GET on the public origin, path-style, for the given time and lifetime', async () => {
    const url = new URL(await hourlyUrl('2025-01-02T10:17:45Z'));
    expect(`${url.origin}${url.pathname}`).toBe(`https://cdn.example.com/framemerch/videos/${key}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIDEXAMPLE/20250102/eu-west-1/s3/aws4_request',
      'X-Amz-Date': '20250102T100000Z',
      'X-Amz-Expires': '7200',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Signature': expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const short = new URL(await storage.signedUrl('videos', key, { signedAt: new Date('2025-01-02T10:17:45.678Z'), expiresInSeconds: 300 }));
    expect(short.searchParams.get('X-Amz-Date')).toBe('20250102T101745Z');
    expect(short.searchParams.get('X-Amz-Expires')).toBe('300');
  });

  it('signs for the endpoint when no public URL is given, and refuses keys it did not make', async () => {
    const direct = new S3Storage({ endpoint: 'http://s3.internal:9000', bucket: 'framemerch', region: 'us-east-1', accessKeyId: 'id', secretAccessKey: 'secret' });
    const url = new URL(await direct.signedUrl('thumbnails', 'ab/x.jpg', hourlySigning(new Date('2025-01-02T10:00:00Z'))));
    expect(`${url.origin}${url.pathname}`).toBe('http://s3.internal:9000/framemerch/thumbnails/ab/x.jpg');
    await expect(direct.signedUrl('videos', '../../etc/passwd', hourlySigning(new Date()))).rejects.toThrow(/Invalid object key/);
  });
});
