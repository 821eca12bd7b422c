/**
 * Serves stored objects with range requests, so videos seek without downloading everything.
 * Stored files are only ever served as the media type their server-made key says, never as
 * HTML, and under a CSP that forbids them from running anything. A module that keeps some
 * objects from the public (the videos module: an unlisted video's file) decorates the app with
 * a mediaGate; a hidden object answers exactly as a missing one.
 *
 * A store that signs URLs (S3) serves the bytes itself: a GET is redirected to a signed URL
 * there, which answers Range requests (the browser sends its Range again). An object anyone
 * may see gets the same URL all hour (see hourlySigning), so the redirect is cached for the rest
 * of that hour; a private one gets a URL for this viewer that lasts an hour, never cached.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import { mediaRoute } from '../../../shared/schemas/media.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { findSession } from '../sessions/sessions.ts';
import { parseRange } from '../storage/byte-range.ts';
import { hourlySigning, isValidKey } from '../storage/object-storage.ts';
import { AppError } from './errors.ts';

/** public: anyone, cached for good; private: this viewer only, never cached; hidden: answered as missing. */
export type MediaAccess = 'public' | 'private' | 'hidden';
/** `viewer` reads the caller's session only when asked: most objects are anyone's, and need none. */
export type MediaGate = (bucket: string, key: string, viewer: () => Promise<SessionUser | null>) => Promise<MediaAccess>;

/**
 * How long a private object's signed URL works: an hour, like a public one's at the least, so a
 * viewer of an unlisted video can still seek in it (the player asks the signed URL for its later
 * ranges). Never cached, so each viewer who is let in gets a URL of their own.
 */
const PRIVATE_URL_SECONDS = 3600;
/** A HEAD's body: a stream, so the content-length set from the stat stands (Node sends no body for a HEAD). */
const noBytes = () => Readable.from([]);
/** Stored files never run anything, on this origin or in the redirect that leads to them. */
const MEDIA_CSP = "default-src 'none'; sandbox";

declare module 'fastify' {
  interface FastifyInstance {
    mediaGate: MediaGate;
  }
}

const media: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...mediaRoute,
    handler: async (request, typedReply) => {
      // Bodies here are byte streams, outside the JSON reply types.
      const reply = typedReply as unknown as FastifyReply;
      const { bucket, '*': key } = request.params;
      // Sessions are read for /api/ requests only (auth.ts); here only a gated object asks for one.
      const viewer = async () => {
        const token = app.sessionToken(request);
        if (!token) return null;
        const session = await findSession(app.db, token);
        return session.kind === 'active' ? session.user : null;
      };
      const access: MediaAccess = !isValidKey(key) ? 'hidden' : app.hasDecorator('mediaGate') ? await app.mediaGate(bucket, key, viewer) : 'public';
      const info = access !== 'hidden' ? await app.storage.stat(bucket, key) : null;
      if (!info) throw AppError.notFound('File not found.');

      // The URL is signed for GET only, so a HEAD is answered here, as before.
      if (app.storage.signedUrl && request.method === 'GET') {
        // Real time, not the app's test clock: the store checks the signature against its own.
        const now = new Date();
        const hourly = access === 'public' ? hourlySigning(now) : null;
        const url = await app.storage.signedUrl(bucket, key, hourly ?? { signedAt: now, expiresInSeconds: PRIVATE_URL_SECONDS });
        return reply
          .header('cache-control', hourly ? `public, max-age=${hourly.freshForSeconds}` : 'private, no-store')
          .header('content-security-policy', MEDIA_CSP)
          .redirect(url, 302);
      }

      const etag = `"${info.size.toString(16)}-${info.modifiedAt.getTime().toString(16)}"`;
      reply
        .header('content-type', info.contentType)
        .header('accept-ranges', 'bytes')
        .header('etag', etag)
        .header('last-modified', info.modifiedAt.toUTCString())
        .header('cache-control', access === 'public' ? 'public, max-age=31536000, immutable' : 'private, no-store')
        .header('content-security-policy', MEDIA_CSP)
        .header('content-disposition', 'inline');

      if (request.headers['if-none-match'] === etag) return reply.code(304).send();

      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? { kind: 'whole' as const } : parseRange(request.headers.range, info.size);
      if (range.kind === 'unsatisfiable') {
        reply.header('content-range', `bytes */${info.size}`).removeHeader('cache-control');
        throw new AppError(416, ERROR_CODES.RANGE_NOT_SATISFIABLE, 'The requested range is outside the file.');
      }
      if (range.kind === 'partial') {
        reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
          .header('content-length', range.end - range.start + 1);
        if (request.method === 'HEAD') return reply.send(noBytes());
        return reply.send(await app.storage.read(bucket, key, { start: range.start, end: range.end }));
      }
      reply.header('content-length', info.size);
      // A HEAD is answered from the stat: the bytes are not read from the store only to be dropped.
      if (request.method === 'HEAD') return reply.send(noBytes());
      return reply.send(await app.storage.read(bucket, key));
    },
  });
};

export default media;
