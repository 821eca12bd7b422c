/**
 * Media work on the server: the ffmpeg tools, multipart parsing for uploads, and the
 * bookkeeping that keeps storage and database in step (see storage/pending-objects.ts).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { findMediaTools, type MediaTools } from './ffmpeg.ts';
import { PendingObjects } from '../storage/pending-objects.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mediaTools: MediaTools;
    pendingObjects: PendingObjects;
  }
}

async function media(app: FastifyInstance) {
  app.decorate('mediaTools', await findMediaTools(app.config));
  const pending = new PendingObjects(app.db, app.storage, app.config.dataDir, app.database.kind === 'pglite', (msg, err) =>
    app.log.warn({ err }, msg),
  );
  app.decorate('pendingObjects', pending);
  await pending.start();
  app.addHook('onClose', async () => pending.stop());
  // Limits are set per request by the routes that take files.
  await app.register(multipart, { throwFileSizeLimit: true, limits: { fileSize: 10 * 1024 * 1024, files: 2, fields: 10 } });
}

export default fp(media, { name: 'media', dependencies: ['context'] });
