/**
 * Resumable uploads over tus 1.0 at RESUMABLE_UPLOAD.endpoint (@tus/server with a FileStore under
 * DATA_DIR/resumable-uploads). Each request is a declared route (access 'creator', so the session,
 * role, suspension and same-site checks are the ones every route gets), and is checked here before
 * tus sees it: the headers tus would refuse as plain text, Upload-Length against the creator's
 * tier, the creator's open uploads, and for an existing upload that it is the caller's (someone
 * else's answers 404, like a missing one). Then the reply is hijacked and tus answers; its errors
 * are rewritten into the app's JSON shape. The owner is written into the upload's metadata by the
 * server at creation, over anything the client sent under that key. A creator's creations take
 * turns, on every process (a lease per creator held from the count of their open uploads until the
 * new one's files exist), so two at once cannot both take the last place.
 *
 * Uploads not written to for RESUMABLE_UPLOAD.expiryHours are removed every SWEEP_EVERY_MS while
 * the app's background loops run (and found expired, an upload answers as missing at once).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ERRORS, Metadata, Server, TUS_RESUMABLE } from '@tus/server';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES, type ErrorCode } from '../../../shared/schemas/common.ts';
import {
  appendResumableUploadRoute,
  createResumableUploadRoute,
  deleteResumableUploadRoute,
  RESUMABLE_MESSAGES,
  RESUMABLE_UPLOAD,
  resumableUploadOffsetRoute,
  UPLOAD_LIMITS,
} from '../../../shared/schemas/studio.ts';
import { errorBody } from '../../platform/http/error-handler.ts';
import { AppError } from '../../platform/http/errors.ts';
import { SNIFF_BYTES } from '../../platform/media/sniff.ts';
import { BROKEN_AFTER_MS, newUploadId, OWNER_KEY, ResumableUploads, TusRefusal, type UploadInfo } from './resumable-store.ts';
import { tierOf } from './service.ts';
import { notAVideo, videoTooLarge } from './video-intake.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The resumable uploads' store (tests and the finish route use it; sweepExpired() is the periodic work). */
    resumableUploads: ResumableUploads & { sweepNow(brokenAfterMs?: number): Promise<number> };
  }
}

export const SWEEP_EVERY_MS = 10 * 60_000;
export const EXPIRY_MS = RESUMABLE_UPLOAD.expiryHours * 3600_000;
const OFFSET_STREAM = 'application/offset+octet-stream';
const INTEGER = /^(0|[1-9][0-9]{0,15})$/;
const LOCKED = 'Another request is writing to this upload; try again in a moment.';

/** The request tus is serving: its caller and upload, for the hooks tus calls without them. */
interface TusCall {
  userId: string;
  id: string | null;
  /** The upload a creation made (its files are stamped with the app's clock once answered). */
  created?: string;
  /** Called once a creation's files are on disk. */
  onCreated?: () => Promise<void>;
  raw: IncomingMessage;
  log: FastifyBaseLogger;
}
const calls = new AsyncLocalStorage<TusCall>();

const refusal = (status: number, code: ErrorCode, message: string) => new AppError(status, code, message);
const malformed = (message: string) => refusal(400, ERROR_CODES.MALFORMED_REQUEST, message);
const notFound = () => AppError.notFound(RESUMABLE_MESSAGES.notFound);

/** tus's own refusals, in the app's words and codes. */
const TUS_ERRORS = new Map<string, { status: number; code: ErrorCode; message: string }>([
  [ERRORS.INVALID_OFFSET.body, { status: 409, code: ERROR_CODES.CONFLICT, message: RESUMABLE_MESSAGES.offsetConflict }],
  [ERRORS.FILE_NOT_FOUND.body, { status: 404, code: ERROR_CODES.NOT_FOUND, message: RESUMABLE_MESSAGES.notFound }],
  [ERRORS.FILE_NO_LONGER_EXISTS.body, { status: 404, code: ERROR_CODES.NOT_FOUND, message: RESUMABLE_MESSAGES.notFound }],
  [ERRORS.ERR_SIZE_EXCEEDED.body, { status: 413, code: ERROR_CODES.PAYLOAD_TOO_LARGE, message: 'The bytes sent go past the Upload-Length the upload was created with.' }],
  [ERRORS.ERR_MAX_SIZE_EXCEEDED.body, { status: 413, code: ERROR_CODES.PAYLOAD_TOO_LARGE, message: 'The bytes sent go past the Upload-Length the upload was created with.' }],
  [ERRORS.INVALID_LENGTH.body, { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: RESUMABLE_MESSAGES.lengthRequired }],
  [ERRORS.INVALID_METADATA.body, { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'Upload-Metadata must be comma-separated "key base64-value" pairs.' }],
  [ERRORS.MISSING_OFFSET.body, { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'Upload-Offset is required.' }],
  [ERRORS.INVALID_CONTENT_TYPE.body, { status: 415, code: ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, message: `The bytes must be sent as ${OFFSET_STREAM}.` }],
  [ERRORS.ABORTED.body, { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'The request ended before its body was complete.' }],
  // Another request holds the upload (an earlier PATCH still draining): tus clients try again on 409.
  [ERRORS.ERR_LOCK_TIMEOUT.body, { status: 409, code: ERROR_CODES.CONFLICT, message: LOCKED }],
]);

/** Any error tus is about to answer, as { status_code, body } with the app's JSON body. */
export function tusErrorReply(err: unknown, call: TusCall | undefined): { status_code: number; body: string } {
  const json = (status: number, code: ErrorCode, message: string) => ({ status_code: status, body: JSON.stringify(errorBody(message, code)) });
  if (err instanceof TusRefusal) return json(err.status_code, err.code as ErrorCode, err.message);
  const given = err as { status_code?: number; body?: string };
  const known = given.body !== undefined ? TUS_ERRORS.get(given.body) : undefined;
  if (known) return json(known.status, known.code, known.message);
  // The client went away mid-body: nobody is left to answer, and it is not our fault.
  if (call && (call.raw.destroyed || call.raw.errored)) return json(400, ERROR_CODES.MALFORMED_REQUEST, 'The request ended before its body was complete.');
  const status = given.status_code ?? 500;
  if (status >= 400 && status < 500) return json(status, ERROR_CODES.MALFORMED_REQUEST, String(given.body ?? 'The request is not a valid tus request.').trim());
  call?.log.error({ err }, 'a resumable upload request failed');
  return json(500, ERROR_CODES.INTERNAL, 'Something went wrong on our side. Please try again.');
}

/**
 * tus writes its answers with the Fetch API's Response, whose text body gets text/plain; its error
 * bodies are the app's JSON (tusErrorReply), so they are labelled so. Everything else passes.
 */
function labelJsonErrors(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { writeHead: unknown }).writeHead = (status: number, ...rest: unknown[]) => {
    if (status >= 400) {
      const at = rest.findIndex((r) => typeof r === 'object' && r !== null);
      const headers = rest[at];
      if (Array.isArray(headers)) {
        const kept: unknown[] = [];
        for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() !== 'content-type') kept.push(headers[i], headers[i + 1]);
        rest[at] = [...kept, 'content-type', 'application/json; charset=utf-8'];
      } else if (headers) {
        const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'));
        rest[at] = { ...kept, 'content-type': 'application/json; charset=utf-8' };
      } else res.setHeader('content-type', 'application/json; charset=utf-8');
    }
    return writeHead(status, ...rest);
  };
}

/** The tus headers the request carries, checked as tus would check them, answered as JSON. */
function checkTusHeaders(request: FastifyRequest): void {
  const h = request.headers;
  if (h['tus-resumable'] !== TUS_RESUMABLE) {
    throw refusal(412, ERROR_CODES.MALFORMED_REQUEST, `Tus-Resumable must be ${TUS_RESUMABLE}.`);
  }
  if (h['tus-version'] !== undefined && h['tus-version'] !== TUS_RESUMABLE) throw malformed(`Tus-Version must be ${TUS_RESUMABLE}.`);
  if (h['upload-defer-length'] !== undefined) throw malformed(RESUMABLE_MESSAGES.lengthRequired);
  if (h['upload-concat'] !== undefined) throw malformed('Upload-Concat is not supported: send the file as one upload.');
  if (h['upload-length'] !== undefined && !INTEGER.test(String(h['upload-length']))) throw malformed(RESUMABLE_MESSAGES.lengthRequired);
  if (h['upload-offset'] !== undefined && !INTEGER.test(String(h['upload-offset']))) throw malformed('Upload-Offset must be a whole number of bytes.');
  if (h['x-forwarded-proto'] !== undefined && h['x-forwarded-proto'] !== 'http' && h['x-forwarded-proto'] !== 'https') {
    throw malformed('X-Forwarded-Proto must be http or https.');
  }
  const metadata = h['upload-metadata'];
  if (metadata !== undefined) {
    try {
      Metadata.parse(String(metadata));
    } catch {
      throw malformed('Upload-Metadata must be comma-separated "key base64-value" pairs.');
    }
  }
  if (request.method === 'PATCH' || (request.method === 'POST' && h['content-type'] !== undefined)) {
    if (h['content-type'] !== OFFSET_STREAM) throw refusal(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, `The bytes must be sent as ${OFFSET_STREAM}.`);
  }
}

const tusRoutes: FastifyPluginAsyncTypebox<{ uploads: ResumableUploads }> = async (app, { uploads }) => {
  // Only tus's own body type, passed through unread: tus streams it to disk. Any other type is
  // refused (415) by Fastify before a byte is read.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(OFFSET_STREAM, (_request, _payload, done) => done(null));

  const tus = new Server({
    path: RESUMABLE_UPLOAD.endpoint,
    datastore: uploads.store,
    locker: uploads.locker,
    relativeLocation: true,
    respectForwardedHeaders: false,
    // Same-site only: no CORS answer for any other origin.
    allowedOrigins: () => false,
    // The largest any tier allows; each creation is held to the creator's own tier before tus sees it.
    maxSize: UPLOAD_LIMITS.pro.videoBytes,
    namingFunction: () => newUploadId(),
    // The id the route checked, never one tus reads again from the URL.
    getFileIdFromRequest: () => calls.getStore()?.id ?? undefined,
    onUploadCreate: async (_req, upload) => {
      const call = calls.getStore();
      if (!call) throw new TusRefusal(401, ERROR_CODES.UNAUTHENTICATED, 'Please log in to upload videos');
      call.created = upload.id;
      const metadata = Object.fromEntries(Object.entries(upload.metadata ?? {}).filter(([k]) => k !== OWNER_KEY));
      return { metadata: { ...metadata, [OWNER_KEY]: call.userId } };
    },
    onResponseError: (_req, err) => tusErrorReply(err, calls.getStore()),
  });

  async function pass(request: FastifyRequest, reply: FastifyReply, id: string | null, onCreated?: () => Promise<void>): Promise<void> {
    const call: TusCall = { userId: request.user!.id, id, raw: request.raw, log: request.log, ...(onCreated ? { onCreated } : {}) };
    const res = reply.raw;
    // Hijacked, the reply skips onSend: the headers every answer carries are set here.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.setHeader('x-request-id', request.id);
    labelJsonErrors(res);
    reply.hijack();
    try {
      // A client gone before tus starts (a PATCH cut while it waited its turn) leaves a body that
      // never ends, and tus hears of a cut only while it listens: it would wait, holding the upload.
      if (request.raw.destroyed) return void res.destroy();
      await calls.run(call, () => tus.handle(request.raw, res));
    } catch (err) {
      request.log.error({ err }, 'a resumable upload request failed');
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorBody('Something went wrong on our side. Please try again.', ERROR_CODES.INTERNAL)));
    } finally {
      // A write's expiry counts from the app's clock, not the files' own (system) times.
      if (id && request.method === 'PATCH') await uploads.stamp(id, app.clock.now());
      if (call.created) await uploads.stamp(call.created, app.clock.now());
    }
  }

  /** The caller's live upload, or 404 (missing, someone else's, or expired: then it is removed). */
  async function ownUpload(request: FastifyRequest, id: string): Promise<UploadInfo> {
    const info = await uploads.findOwn(id, request.user!.id);
    if (!info) throw notFound();
    if (info.touchedAt.getTime() < app.clock.now().getTime() - EXPIRY_MS) {
      if (!(await uploads.isClaimed(id))) await uploads.remove(id);
      throw notFound();
    }
    return info;
  }

  const swagger = { swagger: { exposeHeadRoute: true } };

  app.route({
    ...createResumableUploadRoute,
    handler: async (request, reply) => {
      checkTusHeaders(request);
      const userId = request.user!.id;
      const length = request.headers['upload-length'];
      if (length === undefined) throw malformed(RESUMABLE_MESSAGES.lengthRequired);
      const bytes = Number(length);
      if (bytes < SNIFF_BYTES) throw notAVideo();
      const tier = await tierOf(app.db, userId, app.clock.now());
      if (bytes > UPLOAD_LIMITS[tier].videoBytes) throw videoTooLarge(tier);
      const turn = await uploads.creationTurn(userId);
      if (!turn) throw refusal(409, ERROR_CODES.CONFLICT, 'Another of your uploads is being started; try again in a moment.');
      try {
        const now = app.clock.now().getTime();
        let open = 0;
        for (const u of (await uploads.list()).filter((x) => x.owner === userId)) {
          if (u.touchedAt.getTime() < now - EXPIRY_MS && !(await uploads.isClaimed(u.id))) await uploads.remove(u.id);
          else open++;
        }
        if (open >= RESUMABLE_UPLOAD.maxOpenPerCreator) throw refusal(429, ERROR_CODES.RATE_LIMITED, RESUMABLE_MESSAGES.tooMany);
        // Counted from here on: the next creation may count it.
        await pass(request, reply, null, () => turn.release());
      } finally {
        await turn.release();
      }
    },
  });

  app.route({
    ...resumableUploadOffsetRoute,
    config: swagger,
    handler: async (request, reply) => {
      checkTusHeaders(request);
      await ownUpload(request, request.params.id);
      await pass(request, reply, request.params.id);
    },
  });

  app.route({
    ...appendResumableUploadRoute,
    handler: async (request, reply) => {
      checkTusHeaders(request);
      if (request.headers['upload-offset'] === undefined) throw malformed('Upload-Offset is required.');
      if (request.headers['upload-length'] !== undefined) throw malformed('Upload-Length is given when the upload is created, not later.');
      const { id } = request.params;
      const served = await uploads.holding(id, async () => {
        await ownUpload(request, id);
        if (await uploads.isClaimed(id)) throw refusal(409, ERROR_CODES.CONFLICT, RESUMABLE_MESSAGES.busy);
        await pass(request, reply, id);
      });
      if (!served) throw refusal(409, ERROR_CODES.CONFLICT, LOCKED);
    },
  });

  app.route({
    ...deleteResumableUploadRoute,
    handler: async (request, reply) => {
      checkTusHeaders(request);
      await ownUpload(request, request.params.id);
      // Held while tus removes it, so a finish cannot start on it meanwhile (nor it go under a finish).
      const release = await uploads.claim(request.params.id);
      if (!release) throw refusal(409, ERROR_CODES.CONFLICT, RESUMABLE_MESSAGES.busy);
      try {
        await pass(request, reply, request.params.id);
      } finally {
        await release();
      }
    },
  });
};

/**
 * Decorates the app with the uploads' store (app.resumableUploads), removes expired uploads
 * periodically while the background loops run, and serves the tus routes in a scope of their own
 * (their body parsing is tus's alone).
 */
async function resumableUploads(app: FastifyInstance) {
  const hooks = {
    refuse: () => new TusRefusal(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, notAVideo().message),
    created: async () => calls.getStore()?.onCreated?.(),
    log: (msg: string, err: unknown) => app.log.warn({ err }, msg),
  };
  const uploads = await ResumableUploads.open(path.join(app.config.dataDir, 'resumable-uploads'), hooks, app.db, app.pendingObjects.instanceId);
  const sweepNow = async (brokenAfterMs?: number) => {
    const removed = await uploads.sweepExpired(app.clock.now(), EXPIRY_MS, brokenAfterMs);
    if (removed > 0) app.log.info(`removed ${removed} expired or broken resumable upload(s)`);
    return removed;
  };
  app.decorate('resumableUploads', Object.assign(uploads, { sweepNow }));
  if (app.background.jobs) {
    let timer: NodeJS.Timeout | null = null;
    let soon: NodeJS.Timeout | null = null;
    const warn = (err: unknown) => app.log.warn({ err }, 'removing expired resumable uploads failed');
    const sweep = () => void sweepNow().catch(warn);
    app.addHook('onReady', async () => {
      // Before the first request, what a crash left. With the embedded database this is the only
      // process, so an upload a crash broke mid-creation is a dead process's and goes now; on
      // PostgreSQL another process may be creating one this moment, so broken ones go once older
      // than BROKEN_AFTER_MS, and a sweep that much later takes those made just before the crash.
      await sweepNow(app.database.kind === 'pglite' ? 0 : undefined).catch(warn);
      timer = setInterval(sweep, SWEEP_EVERY_MS);
      timer.unref();
      soon = setTimeout(sweep, BROKEN_AFTER_MS + 1000);
      soon.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      if (soon) clearTimeout(soon);
    });
  }
  await app.register(tusRoutes, { uploads });
}

export default fp(resumableUploads, { name: 'resumable-uploads', dependencies: ['context', 'media'] });
