/**
 * Starts FrameMerch: reads the configuration, prepares the database and storage, and serves
 * the API and the built web app from one process. SIGINT/SIGTERM close it gracefully:
 * no new connections, in-flight requests finish, then the database closes.
 */
import cluster from 'node:cluster';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { app, serverOptions } from './app.ts';
import { prepare } from './bootstrap.ts';
import { ConfigError, loadConfig, type Config } from './platform/config/config.ts';
import { CONNECTION_TIMEOUTS, pauseIdleClockWhileServing, timeoutOptions } from './platform/http/timeouts.ts';
import { reportEventLoopDelay } from './platform/http/event-loop.ts';

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }

  // No deadline for a whole request (a 2 GB upload over a slow line must finish), but headers
  // within 20 s, no more than 60 s without a byte while waiting on the client, and 72 s between
  // requests on a kept-alive connection: see platform/http/timeouts.ts.
  const server = Fastify({
    ...serverOptions(config.logLevel),
    ...timeoutOptions(CONNECTION_TIMEOUTS),
    forceCloseConnections: 'idle',
  });
  pauseIdleClockWhileServing(server);
  const fastify = server.withTypeProvider<TypeBoxTypeProvider>();

  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(config, { log: (m) => fastify.log.info(m) });
  } catch (err) {
    // A setting found wrong while preparing (a key file others may read, say) stops the start like one read wrong.
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const { seed } = prepared;
  if (seed.admin) {
    const lines = [
      'Demo content created.',
      `Admin sign-in: ${seed.admin.email}`,
      seed.admin.password ? `Admin password: ${seed.admin.password}  (shown once; keep it)` : 'Admin password: the ADMIN_PASSWORD you set',
    ];
    console.log(`\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  }

  await fastify.register(app, { config, ...prepared, ownsDatabase: true });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    fastify.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      fastify.log.error('graceful shutdown timed out');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    fastify.close().then(
      () => process.exit(0),
      (err) => {
        fastify.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  await fastify.listen({ host: config.host, port: config.port });
  // Only with EVENT_LOOP_REPORT_MS set (the soak test): the loop's delay, written to stdout.
  reportEventLoopDelay();
  const processes = Number(process.env.WORKERS ?? 1);
  const which = cluster.isWorker && processes > 1 ? `, one of ${processes} API processes: pid ${process.pid}` : '';
  console.log(`FrameMerch is serving on ${config.publicUrl} (database: ${prepared.database.kind}${which})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
