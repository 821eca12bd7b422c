import { describe, expect, it, vi } from 'vitest';
import type { RouteDef } from '../../../shared/schemas/route.ts';
import { finishResumableUploadRoute, RESUMABLE_UPLOAD, UPLOAD_STAGES, uploadVideoRoute } from '../../../shared/schemas/studio.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { ApiError } from '../../lib/ApiError.ts';
import type { UploadOptions } from '../../lib/uploadWithProgress.ts';
import type { ResumableCallbacks, ResumableResult } from './resumableUpload.ts';
import { finishForm, runUpload, type UploadDeps, type UploadFields, type UploadFlow } from './runUpload.ts';

const MB = 1024 * 1024;
const storedVideo = { id: '6c1c5a4e-8a43-4c8c-9e39-0d3f3c6c7f11', title: 'Clip' } as VideoCard;
const thumbnail = new File([new Uint8Array(200 * 1024)], 'thumb.jpg', { type: 'image/jpeg' });
const smallVideo = new File([new Uint8Array(1000)], 'small.mp4', { type: 'video/mp4' });
/** Stands in for a 150 MB file: the flow reads only its size, name and type (tus gets it as it is). */
const bigVideo = { name: 'big.mp4', type: 'video/mp4', size: 150 * MB, lastModified: 1 } as File;

const fieldsWith = (video: File): UploadFields => ({ title: ' Clip ', description: 'About\n', category: 'music', video, thumbnail });

interface Sent {
  route: RouteDef;
  form: FormData;
}

/** Deps whose network parts the test drives by hand. */
function harness(options: { multipartFails?: ApiError; tusFails?: ApiError } = {}) {
  const sent: Sent[] = [];
  const tusCalls: { file: File; owner: string; callbacks: ResumableCallbacks; abort: ReturnType<typeof vi.fn> }[] = [];
  let finishTus: (result: ResumableResult) => void = () => undefined;
  let failTus: (error: unknown) => void = () => undefined;
  const deps: UploadDeps = {
    ensureUser: () => Promise.resolve({ success: true }),
    uploadWithProgress: (async (route: RouteDef, opts: UploadOptions<RouteDef>) => {
      sent.push({ route, form: opts.form });
      const body = [...opts.form.values()].reduce((n, v) => n + (typeof v === 'string' ? v.length : v.size), 0);
      opts.onProgress?.({ loaded: Math.floor(body / 2), total: body });
      opts.onProgress?.({ loaded: body, total: body });
      if (options.multipartFails) throw options.multipartFails;
      return { success: true, video: storedVideo };
    }) as UploadDeps['uploadWithProgress'],
    sendResumable: (file, owner, callbacks = {}) => {
      const abort = vi.fn(() => Promise.resolve());
      const done = new Promise<ResumableResult>((resolve, reject) => {
        finishTus = resolve;
        failTus = reject;
      });
      tusCalls.push({ file, owner, callbacks, abort });
      if (options.tusFails) failTus(options.tusFails);
      return { done, abort };
    },
  };
  const flows: UploadFlow[] = [];
  return {
    deps,
    sent,
    tusCalls,
    flows,
    onChange: (flow: UploadFlow) => void flows.push(flow),
    finishTus: (uploadId: string) => finishTus({ uploadId, uploadUrl: `http://app.test/api/uploads/${uploadId}` }),
    failTus: (error: unknown) => failTus(error),
  };
}

const percents = (flows: UploadFlow[]) => flows.flatMap((f) => (f.status === 'uploading' ? [f.step.percent] : f.status === 'done' ? [100] : []));

describe('runUpload: the path by size', () => {
  it(`sends a video up to ${RESUMABLE_UPLOAD.thresholdBytes / MB} MB in one multipart request, as before`, async () => {
    const h = harness();
    await runUpload(fieldsWith(smallVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps }).finished;

    expect(h.tusCalls).toEqual([]);
    expect(h.sent.map((s) => s.route)).toEqual([uploadVideoRoute]);
    expect([...h.sent[0]!.form.keys()]).toEqual(['title', 'description', 'category', 'video', 'thumbnail']);
    expect(h.flows.at(-1)).toEqual({ status: 'done', video: storedVideo });
    const seen = percents(h.flows);
    expect(seen[0]).toBe(0);
    expect(seen).toContain(UPLOAD_STAGES.ensureUser);
    expect(seen).toContain(UPLOAD_STAGES.thumbnail);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const bytes = h.flows.flatMap((f) => (f.status === 'uploading' && f.bytes ? [f.bytes] : []));
    expect(bytes.at(-1)!.sent).toBe(bytes.at(-1)!.total);
  });

  it('sends a larger video resumably, then finishes it with the fields, upload_id and the thumbnail', async () => {
    const h = harness();
    const run = runUpload(fieldsWith(bigVideo), { owner: 'creator-7', onChange: h.onChange, deps: h.deps });
    await vi.waitFor(() => expect(h.tusCalls).toHaveLength(1));
    expect(h.tusCalls[0]).toMatchObject({ file: bigVideo, owner: 'creator-7' });
    expect(h.sent).toEqual([]);

    h.finishTus('a1b2c3');
    await run.finished;
    expect(h.sent.map((s) => s.route)).toEqual([finishResumableUploadRoute]);
    const form = h.sent[0]!.form;
    expect([...form.keys()]).toEqual(['title', 'description', 'category', 'upload_id', 'thumbnail']);
    expect(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'))).toEqual({
      title: 'Clip',
      description: 'About',
      category: 'music',
      upload_id: 'a1b2c3',
    });
    expect((form.get('thumbnail') as File).name).toBe('thumb.jpg');
    expect(h.flows.at(-1)).toEqual({ status: 'done', video: storedVideo });
  });
});

describe('runUpload: progress on the resumable path', () => {
  it("moves the bar 10 -> 80 with the bytes, counts them, and 100 on the server's answer", async () => {
    const h = harness();
    const run = runUpload(fieldsWith(bigVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps });
    await vi.waitFor(() => expect(h.tusCalls).toHaveLength(1));
    const total = bigVideo.size + thumbnail.size;
    const { onProgress } = h.tusCalls[0]!.callbacks;
    onProgress?.(0, bigVideo.size);
    onProgress?.(bigVideo.size / 2, bigVideo.size);
    const half = h.flows.at(-1)!;
    expect(half).toMatchObject({ status: 'uploading', step: { stage: 'video' }, bytes: { sent: bigVideo.size / 2, total } });
    expect(half.status === 'uploading' && half.step.percent).toBe(44);
    onProgress?.(bigVideo.size, bigVideo.size);
    h.finishTus('x');
    await run.finished;

    const seen = percents(h.flows);
    expect(seen.slice(0, 3)).toEqual([0, UPLOAD_STAGES.ensureUser, UPLOAD_STAGES.ensureUser]);
    expect(seen).toContain(UPLOAD_STAGES.thumbnail);
    expect(seen.at(-1)).toBe(UPLOAD_STAGES.metadata);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.every((p) => p <= UPLOAD_STAGES.thumbnail || p === UPLOAD_STAGES.metadata)).toBe(true);
  });

  it('says the connection was lost while tus retries, until the bytes are back past where they were', async () => {
    const h = harness();
    const run = runUpload(fieldsWith(bigVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps });
    await vi.waitFor(() => expect(h.tusCalls).toHaveLength(1));
    const { onProgress, onRetry } = h.tusCalls[0]!.callbacks;
    onProgress?.(60 * MB, bigVideo.size);
    onRetry?.(1);
    expect(h.flows.at(-1)).toMatchObject({ notice: 'reconnecting' });
    // Resent from the last chunk the server kept: the bar holds, the notice stays.
    onProgress?.(48 * MB, bigVideo.size);
    expect(h.flows.at(-1)).toMatchObject({ notice: 'reconnecting', bytes: { sent: 60 * MB } });
    expect(h.flows.at(-1)?.status === 'uploading' && h.flows.at(-1)).toMatchObject({ step: { percent: 37 } });
    onProgress?.(61 * MB, bigVideo.size);
    expect(h.flows.at(-1)).toMatchObject({ notice: null, bytes: { sent: 61 * MB } });
    h.finishTus('x');
    await run.finished;
  });

  it('says when an earlier unfinished upload of the file is carried on', async () => {
    const h = harness();
    const run = runUpload(fieldsWith(bigVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps });
    await vi.waitFor(() => expect(h.tusCalls).toHaveLength(1));
    h.tusCalls[0]!.callbacks.onResume?.();
    h.tusCalls[0]!.callbacks.onProgress?.(96 * MB, bigVideo.size);
    expect(h.flows.at(-1)).toMatchObject({ notice: 'resuming', step: { percent: 54 } });
    h.finishTus('x');
    await run.finished;
  });
});

describe('runUpload: failures and stopping', () => {
  it("shows the server's limit message from the tus creation as the reason", async () => {
    const reason = 'Video upload failed: Video file size must be less than 2GB.';
    const h = harness({ tusFails: new ApiError(413, 'PAYLOAD_TOO_LARGE', reason, reason) });
    await runUpload(fieldsWith(bigVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps }).finished;
    expect(h.flows.at(-1)).toEqual({ status: 'failed', reason, httpStatus: 413 });
    expect(h.sent).toEqual([]);
  });

  it("shows the finish request's refusal (too long, upload not complete) as it comes", async () => {
    const reason = 'Video upload failed: Video must be shorter than 10 minutes.';
    const h = harness({ multipartFails: new ApiError(422, 'VALIDATION_FAILED', reason, reason) });
    const run = runUpload(fieldsWith(bigVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps });
    await vi.waitFor(() => expect(h.tusCalls).toHaveLength(1));
    h.finishTus('x');
    await run.finished;
    expect(h.flows.at(-1)).toEqual({ status: 'failed', reason, httpStatus: 422 });
  });

  it('a lost connection on the multipart path reads as the network message', async () => {
    const h = harness({ multipartFails: new ApiError(0, 'NETWORK_ERROR', 'Network error. Please check your internet connection and try again.') });
    await runUpload(fieldsWith(smallVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps }).finished;
    expect(h.flows.at(-1)).toMatchObject({ status: 'failed', httpStatus: 0, reason: expect.stringContaining('Network error') });
  });

  it('only finishes when the video is already on the server from a try whose finish failed', async () => {
    const h = harness();
    const uploaded: string[] = [];
    await runUpload(fieldsWith(bigVideo), {
      owner: 'u1',
      onChange: h.onChange,
      deps: h.deps,
      uploadedId: 'kept-1',
      onVideoUploaded: (id) => void uploaded.push(id),
    }).finished;
    expect(h.tusCalls).toEqual([]);
    expect(h.sent[0]!.form.get('upload_id')).toBe('kept-1');
    expect(uploaded).toEqual([]);
  });

  it('leaving keeps the partial upload (abort without delete); Cancel deletes it; neither reports afterwards', async () => {
    for (const discard of [false, true]) {
      const h = harness();
      const run = runUpload(fieldsWith(bigVideo), { owner: 'u1', onChange: h.onChange, deps: h.deps });
      await vi.waitFor(() => expect(h.tusCalls).toHaveLength(1));
      const reported = h.flows.length;
      run.stop(discard);
      expect(h.tusCalls[0]!.abort).toHaveBeenCalledWith(discard);
      h.failTus(new DOMException('The upload was aborted.', 'AbortError'));
      await run.finished;
      expect(h.flows).toHaveLength(reported);
    }
  });
});

describe('finishForm', () => {
  it('carries the trimmed fields, the upload id, then the thumbnail', () => {
    const form = finishForm(fieldsWith(bigVideo), 'id-9');
    expect([...form.keys()]).toEqual(['title', 'description', 'category', 'upload_id', 'thumbnail']);
    expect(form.get('upload_id')).toBe('id-9');
    expect(form.has('video')).toBe(false);
  });
});
