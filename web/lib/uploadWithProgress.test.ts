import { describe, expect, it } from 'vitest';
import { profileImageRoute, uploadVideoRoute } from '../../shared/schemas/studio.ts';
import { isAbortError, isApiError } from './ApiError.ts';
import { createUploader } from './uploadWithProgress.ts';

type Handler = ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;

/** The parts of XMLHttpRequest the uploader uses, driven by the test. */
class FakeXhr {
  opened: [string, string] | null = null;
  headers: Record<string, string> = {};
  sent: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: Handler } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

function setup() {
  const xhrs: FakeXhr[] = [];
  const upload = createUploader(() => {
    const xhr = new FakeXhr();
    xhrs.push(xhr);
    return xhr as unknown as XMLHttpRequest;
  });
  return { xhrs, upload };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('uploadWithProgress', () => {
  it('sends the form to the route, reports bytes sent and returns the reply', async () => {
    const { xhrs, upload } = setup();
    const form = new FormData();
    form.append('title', 'Hello');
    const seen: Array<[number, number]> = [];
    const pending = upload(uploadVideoRoute, { form, onProgress: (p) => seen.push([p.loaded, p.total]) });
    const xhr = xhrs[0]!;
    expect(xhr.opened).toEqual(['POST', '/api/videos']);
    expect(xhr.headers.accept).toBe('application/json');
    expect(xhr.sent).toBe(form);
    xhr.upload.onprogress?.({ loaded: 10, total: 100, lengthComputable: true });
    xhr.upload.onprogress?.({ loaded: 0, total: 0, lengthComputable: false });
    xhr.upload.onprogress?.({ loaded: 100, total: 100, lengthComputable: true });
    const reply = { success: true, video: { id: 'x' } };
    xhr.answer(201, reply);
    expect(await pending).toEqual(reply);
    expect(seen).toEqual([
      [10, 100],
      [100, 100],
    ]);
  });

  it('fills path parameters', () => {
    const { xhrs, upload } = setup();
    void upload(profileImageRoute, { params: { kind: 'cover' }, form: new FormData() });
    expect(xhrs[0]!.opened).toEqual(['POST', '/api/studio/profile/cover']);
  });

  it("fails with the server's code and message, like request()", async () => {
    const { xhrs, upload } = setup();
    const pending = upload(uploadVideoRoute, { form: new FormData() });
    xhrs[0]!.answer(422, { success: false, error: 'Video upload failed: not a video', code: 'VALIDATION_FAILED' });
    expect(await caught(pending)).toMatchObject({ name: 'ApiError', status: 422, code: 'VALIDATION_FAILED', message: 'Video upload failed: not a video' });
  });

  it('reports an unreachable server as status 0', async () => {
    const { xhrs, upload } = setup();
    const pending = upload(uploadVideoRoute, { form: new FormData() });
    xhrs[0]!.onerror?.();
    const error = await caught(pending);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('aborts with an AbortError when the signal fires, and never starts when already aborted', async () => {
    const { xhrs, upload } = setup();
    const controller = new AbortController();
    const pending = upload(uploadVideoRoute, { form: new FormData(), signal: controller.signal });
    controller.abort();
    expect(xhrs[0]!.aborted).toBe(true);
    expect(isAbortError(await caught(pending))).toBe(true);

    const late = upload(uploadVideoRoute, { form: new FormData(), signal: controller.signal });
    expect(isAbortError(await caught(late))).toBe(true);
    expect(xhrs).toHaveLength(1);
  });
});
