/**
 * The resumable path with the real tus-js-client, over an in-memory tus 1.0 server: chunks,
 * resuming a remembered upload, an expired one started over, a dropped connection retried,
 * refusals in the app's error shape, and leaving versus cancelling.
 */
import { Upload, type HttpRequest, type HttpResponse, type HttpStack, type PreviousUpload, type UrlStorage } from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESUMABLE_UPLOAD } from '../../../shared/schemas/studio.ts';
import { ApiError } from '../../lib/ApiError.ts';
import {
  CHUNK_BYTES,
  createResumableUploader,
  isRetryable,
  tusFailure,
  uploadIdFromUrl,
  usesResumableUpload,
  type MakeTusUpload,
} from './resumableUpload.ts';

const MB = 1024 * 1024;
const ORIGIN = 'http://app.test';

interface StoredUpload {
  length: number;
  offset: number;
  metadata: string;
}

type Reply = { status: number; headers?: Record<string, string>; body?: string };

/** A tus 1.0 server in memory, with switches for the failures the tests need. */
class FakeTusServer {
  uploads = new Map<string, StoredUpload>();
  log: string[] = [];
  /** The next this-many PATCHes fail as if the connection dropped. */
  dropPatches = 0;
  /** Answer upload creation with this instead. */
  refuseCreate: Reply | null = null;
  /** PATCHes wait until aborted (to test leaving mid-upload). */
  hangPatches = false;
  private nextId = 1;

  private handle(method: string, url: string, headers: Map<string, string>, body: Blob | null): Reply {
    const path = new URL(url, ORIGIN).pathname;
    const id = path.slice(`${RESUMABLE_UPLOAD.endpoint}/`.length);
    const stored = this.uploads.get(id);
    if (method === 'POST' && path === RESUMABLE_UPLOAD.endpoint) {
      this.log.push(`POST ${headers.get('upload-length')}`);
      if (this.refuseCreate) return this.refuseCreate;
      const newId = `up${this.nextId++}`;
      this.uploads.set(newId, { length: Number(headers.get('upload-length')), offset: 0, metadata: headers.get('upload-metadata') ?? '' });
      return { status: 201, headers: { Location: `${RESUMABLE_UPLOAD.endpoint}/${newId}` } };
    }
    this.log.push(`${method} ${id}${method === 'PATCH' ? `@${headers.get('upload-offset')}+${body?.size ?? 0}` : ''}`);
    if (!stored) return { status: 404, body: JSON.stringify({ success: false, error: 'Upload not found', code: 'NOT_FOUND' }) };
    if (method === 'HEAD') {
      return { status: 200, headers: { 'Upload-Offset': String(stored.offset), 'Upload-Length': String(stored.length) } };
    }
    if (method === 'PATCH') {
      if (Number(headers.get('upload-offset')) !== stored.offset) return { status: 409 };
      stored.offset += body?.size ?? 0;
      return { status: 204, headers: { 'Upload-Offset': String(stored.offset) } };
    }
    if (method === 'DELETE') {
      this.uploads.delete(id);
      return { status: 204 };
    }
    return { status: 405 };
  }

  stack(): HttpStack {
    return {
      getName: () => 'fake',
      createRequest: (method, url) => {
        const headers = new Map<string, string>();
        let onProgress: (sent: number) => void = () => undefined;
        let abortRequest: () => void = () => undefined;
        const request: HttpRequest = {
          getMethod: () => method,
          getURL: () => url,
          setHeader: (name, value) => void headers.set(name.toLowerCase(), value),
          getHeader: (name) => headers.get(name.toLowerCase()),
          setProgressHandler: (handler) => void (onProgress = handler),
          getUnderlyingObject: () => null,
          abort: () => {
            abortRequest();
            return Promise.resolve();
          },
          send: async (body: Blob | null) => {
            await Promise.resolve();
            if (method === 'PATCH' && this.dropPatches > 0) {
              this.dropPatches -= 1;
              onProgress(Math.floor((body?.size ?? 0) / 2));
              this.log.push('PATCH dropped');
              throw new Error('net::ERR_FAILED');
            }
            if (method === 'PATCH' && this.hangPatches) {
              this.log.push('PATCH held');
              await new Promise<void>((_resolve, reject) => (abortRequest = () => reject(new Error('aborted'))));
            }
            const reply = this.handle(method, url, headers, body);
            if (method === 'PATCH' && body) onProgress(body.size);
            return response(reply);
          },
        };
        return request;
      },
    };
  }
}

function response(reply: Reply): HttpResponse {
  const headers = new Map(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    getStatus: () => reply.status,
    getHeader: (name) => headers.get(name.toLowerCase()),
    getBody: () => reply.body ?? '',
    getUnderlyingObject: () => null,
  };
}

/** localStorage's role, in memory: what survives a reload. */
class MemoryUrlStorage implements UrlStorage {
  entries = new Map<string, PreviousUpload & { fingerprint: string }>();
  private n = 0;
  findAllUploads() {
    return Promise.resolve([...this.entries.values()]);
  }
  findUploadsByFingerprint(fingerprint: string) {
    return Promise.resolve([...this.entries.values()].filter((e) => e.fingerprint === fingerprint));
  }
  removeUpload(key: string) {
    this.entries.delete(key);
    return Promise.resolve();
  }
  addUpload(fingerprint: string, upload: PreviousUpload) {
    const key = `tus::${fingerprint}::${this.n++}`;
    this.entries.set(key, { ...upload, fingerprint, urlStorageKey: key });
    return Promise.resolve(key);
  }
}

/** The browser's file reader: Blob slices. */
const blobReader = {
  openFile: (file: File) =>
    Promise.resolve({
      size: file.size,
      slice: (start: number, end: number) => Promise.resolve({ value: file.slice(start, end), done: end >= file.size }),
      close: () => undefined,
    }),
};

let server: FakeTusServer;
let storage: MemoryUrlStorage;
let made: Upload[];
let makeUpload: MakeTusUpload;

beforeEach(() => {
  vi.stubGlobal('location', new URL(`${ORIGIN}/upload`));
  server = new FakeTusServer();
  storage = new MemoryUrlStorage();
  made = [];
  makeUpload = (file, options) => {
    const upload = new Upload(file, { ...options, httpStack: server.stack(), urlStorage: storage, fileReader: blobReader });
    made.push(upload);
    return upload;
  };
});
afterEach(() => vi.unstubAllGlobals());

const video = (size = 40 * MB, name = 'holiday.mp4') => new File([new Uint8Array(size)], name, { type: 'video/mp4', lastModified: 1_700_000_000_000 });

function track() {
  const seen = { progress: [] as number[], retries: [] as number[], resumed: 0 };
  return {
    seen,
    callbacks: {
      onProgress: (sent: number) => void seen.progress.push(sent),
      onRetry: (attempt: number) => void seen.retries.push(attempt),
      onResume: () => void (seen.resumed += 1),
    },
  };
}

describe('usesResumableUpload', () => {
  it('keeps files up to the threshold on the one-request path and sends larger ones resumably', () => {
    expect(usesResumableUpload(5 * MB)).toBe(false);
    expect(usesResumableUpload(RESUMABLE_UPLOAD.thresholdBytes)).toBe(false);
    expect(usesResumableUpload(RESUMABLE_UPLOAD.thresholdBytes + 1)).toBe(true);
    expect(usesResumableUpload(150 * MB)).toBe(true);
  });
});

describe('sendResumable', () => {
  it('creates the upload with its name and type, sends it in chunks and answers the upload id', async () => {
    const send = createResumableUploader(makeUpload);
    const { seen, callbacks } = track();
    const file = video();
    const result = await send(file, 'creator-1', callbacks).done;

    expect(result.uploadId).toBe('up1');
    expect(result.uploadUrl).toBe(`${ORIGIN}${RESUMABLE_UPLOAD.endpoint}/up1`);
    expect(server.log).toEqual([`POST ${file.size}`, `PATCH up1@0+${CHUNK_BYTES}`, `PATCH up1@${CHUNK_BYTES}+${CHUNK_BYTES}`, `PATCH up1@${2 * CHUNK_BYTES}+${8 * MB}`]);
    const metadata = Object.fromEntries(
      server.uploads.get('up1')!.metadata.split(',').map((pair) => {
        const [key, value] = pair.split(' ');
        return [key, atob(value!)];
      }),
    );
    expect(metadata).toEqual({ filename: 'holiday.mp4', filetype: 'video/mp4' });
    expect(seen.progress.at(-1)).toBe(file.size);
    expect(seen.progress).toEqual([...seen.progress].sort((a, b) => a - b));
    // Done, so forgotten: the same file chosen again is a new upload.
    expect(storage.entries.size).toBe(0);
    expect(made[0]!.options).toMatchObject({ chunkSize: CHUNK_BYTES, storeFingerprintForResuming: true, removeFingerprintOnSuccess: true });
    expect(made[0]!.options.endpoint).toBe(`${ORIGIN}${RESUMABLE_UPLOAD.endpoint}`);
  });

  it('carries on an upload left unfinished (a reload, a closed tab) from the offset the server holds', async () => {
    const send = createResumableUploader(makeUpload);
    const file = video();
    server.hangPatches = true;
    const first = send(file, 'creator-1');
    await vi.waitFor(() => expect(server.log).toContain('PATCH held'));
    // The server kept one chunk before the page went away; leaving keeps the upload and its memory.
    server.uploads.get('up1')!.offset = CHUNK_BYTES;
    await first.abort();
    await expect(first.done).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.log).not.toContain('DELETE up1');
    expect(storage.entries.size).toBe(1);

    server.hangPatches = false;
    server.log = [];
    const { seen, callbacks } = track();
    // The same file chosen again: a new File object with the same name, size and date.
    const result = await send(video(), 'creator-1', callbacks).done;
    expect(result.uploadId).toBe('up1');
    expect(server.log).toEqual(['HEAD up1', `PATCH up1@${CHUNK_BYTES}+${CHUNK_BYTES}`, `PATCH up1@${2 * CHUNK_BYTES}+${8 * MB}`]);
    expect(seen.resumed).toBe(1);
    expect(Math.min(...seen.progress)).toBeGreaterThanOrEqual(CHUNK_BYTES);
  });

  it('starts over when the remembered upload has expired on the server (404)', async () => {
    const send = createResumableUploader(makeUpload);
    await storage.addUpload(`framemerch-creator-1-holiday.mp4-video/mp4-${40 * MB}-1700000000000-${ORIGIN}${RESUMABLE_UPLOAD.endpoint}`, {
      size: 40 * MB,
      metadata: {},
      creationTime: new Date(Date.now() - 30 * 3600_000).toString(),
      urlStorageKey: '',
      uploadUrl: `${ORIGIN}${RESUMABLE_UPLOAD.endpoint}/gone`,
      parallelUploadUrls: null,
    });
    const { seen, callbacks } = track();
    const result = await send(video(), 'creator-1', callbacks).done;

    expect(server.log.slice(0, 2)).toEqual(['HEAD gone', `POST ${40 * MB}`]);
    expect(result.uploadId).toBe('up1');
    expect(seen.resumed).toBe(0);
    expect(storage.entries.size).toBe(0);
  });

  it("never resumes another creator's upload of the same file", async () => {
    const send = createResumableUploader(makeUpload);
    server.hangPatches = true;
    const first = send(video(), 'creator-1');
    await vi.waitFor(() => expect(server.log).toHaveLength(2));
    await first.abort();
    await expect(first.done).rejects.toMatchObject({ name: 'AbortError' });
    server.hangPatches = false;
    server.log = [];
    const result = await send(video(), 'creator-2').done;
    expect(server.log[0]).toBe(`POST ${40 * MB}`);
    expect(result.uploadId).toBe('up2');
  });

  it('retries a dropped connection, says so, and finishes without starting over', async () => {
    const send = createResumableUploader(makeUpload);
    const { seen, callbacks } = track();
    server.dropPatches = 1;
    const result = await send(video(), 'creator-1', callbacks).done;

    expect(result.uploadId).toBe('up1');
    expect(seen.retries).toEqual([1]);
    expect(server.log).toEqual([
      `POST ${40 * MB}`,
      'PATCH dropped',
      'HEAD up1',
      `PATCH up1@0+${CHUNK_BYTES}`,
      `PATCH up1@${CHUNK_BYTES}+${CHUNK_BYTES}`,
      `PATCH up1@${2 * CHUNK_BYTES}+${8 * MB}`,
    ]);
    expect(server.log.filter((l) => l.startsWith('POST'))).toHaveLength(1);
  });

  it("reports a refusal with the server's own message and does not retry it", async () => {
    const send = createResumableUploader(makeUpload);
    const reason =
      'Video upload failed: Video file size must be less than 100MB. Upgrade to Pro on /subscription-tiers for videos up to 2GB and 60 minutes.';
    server.refuseCreate = { status: 413, body: JSON.stringify({ success: false, error: reason, code: 'PAYLOAD_TOO_LARGE' }) };
    const { seen, callbacks } = track();
    const error = await send(video(), 'creator-1', callbacks).done.catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: reason });
    expect(seen.retries).toEqual([]);
    expect(server.log).toEqual([`POST ${40 * MB}`]);
  });

  it('Cancel deletes the partial upload on the server and forgets it', async () => {
    const send = createResumableUploader(makeUpload);
    server.hangPatches = true;
    const upload = send(video(), 'creator-1');
    await vi.waitFor(() => expect(server.log).toHaveLength(2));
    await upload.abort(true);
    await expect(upload.done).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.log.at(-1)).toBe('DELETE up1');
    expect(server.uploads.size).toBe(0);
    expect(storage.entries.size).toBe(0);
  });

  it('never passes chunkSize as undefined (tus would loop on empty PATCHes)', () => {
    const seen: object[] = [];
    const send = createResumableUploader((_file, options) => {
      seen.push(options);
      return { url: null, start: () => undefined, abort: () => Promise.resolve(), findPreviousUploads: () => Promise.resolve([]), resumeFromPreviousUpload: () => undefined };
    });
    void send(video(1), 'creator-1');
    expect(seen[0]).toHaveProperty('chunkSize', CHUNK_BYTES);
    expect(Object.entries(seen[0]!).filter(([, v]) => v === undefined)).toEqual([]);
  });
});

describe('uploadIdFromUrl, isRetryable and tusFailure', () => {
  it('takes the last path segment of the upload URL', () => {
    expect(uploadIdFromUrl(`${ORIGIN}/api/uploads/abc123`)).toBe('abc123');
    expect(uploadIdFromUrl('/api/uploads/abc123/')).toBe('abc123');
    expect(uploadIdFromUrl('/api/uploads/a%20b')).toBe('a b');
  });

  it('retries what a retry can mend and nothing else', () => {
    expect([0, 500, 502, 503, 409, 423].map(isRetryable)).toEqual([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 410, 413, 415, 422].map(isRetryable)).toEqual(Array(8).fill(false));
  });

  it("turns tus errors into the app's errors", () => {
    const failed = (status: number, body: string) => ({ originalResponse: response({ status, body }) });
    expect(tusFailure(new Error('no response'))).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(tusFailure(failed(422, JSON.stringify({ success: false, error: 'Video upload failed: too long', code: 'VALIDATION_FAILED' })))).toMatchObject({
      status: 422,
      message: 'Video upload failed: too long',
    });
    expect(tusFailure(failed(413, 'Maximum size exceeded\n'))).toMatchObject({ status: 413, message: 'Video upload failed: Maximum size exceeded' });
    expect(tusFailure(failed(502, '<html>Bad gateway</html>')).message).toBe('Unexpected response from server (not JSON)');
  });
});
