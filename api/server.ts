/**
 * Starts FrameMerch: reads the configuration, prepares the database and storage, and serves
 * the API and the built web app from one process. SIGINT/SIGTERM close it gracefully:
 * no new connections, in-flight requests finish, then the database closes.
 */
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { app, serverOptions } from './app.ts';
import { prepare } from './bootstrap.ts';
import { ConfigError, loadConfig, type Config } from './platform/config/config.ts';

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

  const fastify = Fastify({
    ...serverOptions(config.logLevel),
    connectionTimeout: 0,
    // A 2 GB upload over a slow line takes long; idle connections are still cut by the header and keep-alive timeouts.
    requestTimeout: 60 * 60 * 1000,
    keepAliveTimeout: 72_000,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  const prepared = await prepare(config, { log: (m) => fastify.log.info(m) });
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
  console.log(`FrameMerch is serving on ${config.publicUrl} (database: ${prepared.database.kind})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
