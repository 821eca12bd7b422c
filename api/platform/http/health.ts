import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { healthRoute } from '../../../shared/schemas/health.ts';
import { pingDatabase } from './repository.ts';

async function timed(fn: () => Promise<unknown>): Promise<{ ok: boolean; latency_ms: number; detail: string }> {
  const start = performance.now();
  try {
    await fn();
    return { ok: true, latency_ms: Math.round((performance.now() - start) * 100) / 100, detail: 'ok' };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - start), detail: (err as Error).message };
  }
}

const health: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...healthRoute,
    handler: async (_request, reply) => {
      const [database, storage] = await Promise.all([
        timed(() => pingDatabase(app.db)),
        timed(() => app.storage.check()),
      ]);
      const ok = database.ok && storage.ok;
      return reply.code(ok ? 200 : 503).send({
        success: ok,
        status: ok ? 'ok' : 'degraded',
        uptime_s: Math.round(process.uptime()),
        database: { ...database, kind: app.database.kind },
        storage: { ...storage, kind: app.storage.kind },
      });
    },
  });
};

export default health;
