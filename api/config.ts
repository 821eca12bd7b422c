/**
 * Configuration, read once from the environment at start. Every problem is collected and
 * reported together, so a misconfigured start says everything that is wrong at once.
 */
import path from 'node:path';

export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL server; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  seedDemo: boolean;
  /** Admin password for the demo admin; when absent one is generated and printed once. */
  adminPassword: string | null;
  ffmpegPath: string | null;
  ffprobePath: string | null;
  /** Lifetime of cached public reads (feed pages, newest creators); 0 turns the cache off. */
  readCacheMs: number;
  /** Built web app to serve; null serves the API alone (development behind Vite). */
  webDist: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function bool(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  problems.push(`${name} must be true or false (got "${raw}")`);
  return fallback;
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];

  const nodeEnv = env.NODE_ENV ?? 'production';
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    problems.push(`NODE_ENV must be production, development or test (got "${nodeEnv}")`);
  }

  let port = 3000;
  if (env.PORT !== undefined && env.PORT !== '') {
    port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      problems.push(`PORT must be a whole number from 0 to 65535 (got "${env.PORT}")`);
      port = 3000;
    }
  }

  const host = env.HOST || '127.0.0.1';

  let databaseUrl: string | null = null;
  if (env.DATABASE_URL) {
    try {
      const u = new URL(env.DATABASE_URL);
      if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new Error('protocol');
      databaseUrl = env.DATABASE_URL;
    } catch {
      problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
    }
  }

  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push('PUBLIC_URL must be an http(s) URL');
  } catch {
    problems.push(`PUBLIC_URL is not a URL (got "${env.PUBLIC_URL}")`);
  }

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const adminPassword = env.ADMIN_PASSWORD || null;
  if (adminPassword !== null && adminPassword.length < 8) problems.push('ADMIN_PASSWORD must be at least 8 characters');

  let readCacheMs = 2000;
  if (env.READ_CACHE_MS !== undefined && env.READ_CACHE_MS !== '') {
    readCacheMs = Number(env.READ_CACHE_MS);
    if (!Number.isInteger(readCacheMs) || readCacheMs < 0 || readCacheMs > 600_000) {
      problems.push(`READ_CACHE_MS must be a whole number of milliseconds from 0 to 600000 (got "${env.READ_CACHE_MS}")`);
      readCacheMs = 0;
    }
  }

  const webDistRaw = env.WEB_DIST ?? 'dist/web';
  const config: Config = {
    env: nodeEnv as Config['env'],
    host,
    port,
    publicUrl,
    dataDir: path.resolve(cwd, env.DATA_DIR || 'data'),
    databaseUrl,
    logLevel,
    seedDemo: bool(env, 'SEED_DEMO', true, problems),
    adminPassword,
    ffmpegPath: env.FFMPEG_PATH || null,
    ffprobePath: env.FFPROBE_PATH || null,
    readCacheMs,
    webDist: webDistRaw === '' || webDistRaw === 'none' ? null : path.resolve(cwd, webDistRaw),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
