/**
 * Serves the built web app from the same process: hashed assets with long cache lifetimes,
 * index.html and the service worker (/sw.js, whose scope is the whole site) never cached, and
 * every other GET that is not an API or media path answered
 * with index.html so the client router takes it (SPA fallback).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { errorBody } from './error-handler.ts';

const API_PREFIXES = ['/api/', '/media/'];
const SERVICE_WORKER = 'sw.js';

async function web(app: FastifyInstance, opts: { dist: string | null }) {
  const dist = opts.dist && existsSync(path.join(opts.dist, 'index.html')) ? opts.dist : null;
  if (dist) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: true,
      index: false,
      setHeaders(reply, file) {
        const rel = path.relative(dist, file);
        const cache = rel.startsWith(`assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : rel === 'index.html' || rel === SERVICE_WORKER
            ? 'no-cache'
            : 'public, max-age=300';
        reply.header('cache-control', cache);
        if (rel === SERVICE_WORKER) reply.header('service-worker-allowed', '/');
      },
    });
    // The static handler refuses a bare folder; the site's root is the app.
    app.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply.type('text/html; charset=utf-8').sendFile('index.html', dist),
    );
  } else {
    app.log.warn('The web app is not built; serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url.startsWith(p)) || url === '/api';
    if (!isApi && dist && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html', dist);
    }
    return reply
      .code(404)
      .send(errorBody(`No route ${request.method} ${url}`, ERROR_CODES.ROUTE_NOT_FOUND));
  });
}

export default fp(web, { name: 'web' });
