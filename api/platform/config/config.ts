/**
 * Configuration, read once from the environment at start. Every problem is collected and
 * reported together, so a misconfigured start says everything that is wrong at once.
 */
import path from 'node:path';
import { abaChecksumValid } from '../../../shared/bank.ts';
import { parseKeyList, type KeyRing } from '../crypto/sealed-values.ts';

export interface Config {
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL server; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl: string | null;
  /** A session connection to the same PostgreSQL for LISTEN and the migrations' lock, when DATABASE_URL goes through a transaction pooler. */
  databaseDirectUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  seedDemo: boolean;
  /** Admin password for the demo admin; when absent one is generated and printed once. */
  adminPassword: string | null;
  ffmpegPath: string | null;
  ffprobePath: string | null;
  /** An outside OpenID provider (Google); null runs the embedded identity provider. */
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  /** SMTP server for outgoing mail; null delivers into the outbox, readable at /dev/mail. */
  smtpUrl: string | null;
  mailFrom: string;
  sessionDays: number;
  /**
   * S3-compatible object storage; null keeps files under dataDir/storage. `publicUrl` is where
   * browsers (and a CDN) reach the endpoint: media is served by URLs signed for it.
   */
  s3: { endpoint: string; publicUrl: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | null;
  /** Lifetime of cached public reads (feed pages, newest creators); 0 turns the cache off. */
  readCacheMs: number;
  /** Built web app to serve; null serves the API alone (development behind Vite). */
  webDist: string | null;
  /** Stripe Checkout; null runs the embedded payment provider and its hosted page. */
  stripe: { secretKey: string; webhookSecret: string } | null;
  /** Printful for shipping quotes and fulfilment; null runs the embedded print-on-demand simulator. */
  printful: { apiKey: string; storeId: string | null; webhookToken: string | null; apiUrl: string } | null;
  /** How long the embedded print-on-demand simulator waits between an order's steps. */
  podStepMs: number;
  /** How often the background job runner looks for due jobs. */
  jobPollMs: number;
  /**
   * Whether checkouts from loopback (127.0.0.1, ::1) count against the per-address limits.
   * Off for development and the checkout load bench, whose buyers all come from this machine.
   */
  checkoutLimitLoopback: boolean;
  /**
   * Whether sign-ups and sign-ins from loopback count against the per-address limits (the
   * per-account ones always apply). Off for development and the browser tests, which sign up
   * every account from this machine.
   */
  authLimitLoopback: boolean;
  /**
   * The keys bank details are sealed with (PAYOUT_ENCRYPTION_KEYS, the current key first); null
   * uses the key file `dataDir/keys/payout-keys.json`, made on the first start.
   */
  payoutKeys: KeyRing | null;
  /** PayPal Payouts (PAYPAL_CLIENT_ID...); null pays PayPal payouts through the embedded payout provider. */
  paypal: { clientId: string; clientSecret: string; webhookId: string; apiBase: string } | null;
  /**
   * Stripe Connect transfers (STRIPE_SECRET_KEY with STRIPE_CONNECT_WEBHOOK_SECRET); null pays Stripe
   * Connect payouts through the embedded payout provider. Several webhook secrets may be given
   * (a Connect endpoint and an account endpoint both point at /api/webhooks/stripe-connect).
   */
  stripeConnect: { secretKey: string; webhookSecrets: string[] } | null;
  /** The platform bank's details for ACH payouts as NACHA files (NACHA_...); null pays ACH payouts through the embedded payout provider. */
  nacha: { immediateDestination: string; immediateOrigin: string; companyName: string; companyId: string; odfi: string } | null;
  /** How long the embedded payout provider takes per processing day of a method (EMBEDDED_PAYOUT_SETTLE_MS). */
  embeddedPayoutSettleMs: number;
  /**
   * Whether an admin may move the app's clock forward (TEST_CLOCK), to reach a payout period's
   * 1st in a test; only with the embedded payment and payout providers.
   */
  testClock: boolean;
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

  let port = 3000;
  if (env.PORT !== undefined && env.PORT !== '') {
    port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      problems.push(`PORT must be a whole number from 0 to 65535 (got "${env.PORT}")`);
      port = 3000;
    }
  }

  const host = env.HOST || '127.0.0.1';

  /** A URL of one of the given schemes, or null when unset (or refused, with its problem noted). */
  const schemeUrl = (name: string, schemes: string[], described: string): string | null => {
    const raw = env[name];
    if (!raw) return null;
    try {
      if (schemes.includes(new URL(raw).protocol.slice(0, -1))) return raw;
    } catch {
      // Not a URL at all: refused below, like a URL of another scheme.
    }
    problems.push(`${name} must be ${described}`);
    return null;
  };

  const databaseUrl = schemeUrl('DATABASE_URL', ['postgres', 'postgresql'], 'a postgres:// or postgresql:// URL');
  const databaseDirectUrl = schemeUrl('DATABASE_DIRECT_URL', ['postgres', 'postgresql'], 'a postgres:// or postgresql:// URL');
  if (databaseDirectUrl && !databaseUrl) problems.push('DATABASE_DIRECT_URL is the direct way to the server DATABASE_URL names: set DATABASE_URL too');

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

  let oidc: Config['oidc'] = null;
  if (env.OIDC_CLIENT_ID) {
    const issuer = env.OIDC_ISSUER || 'https://accounts.google.com';
    if (!env.OIDC_CLIENT_SECRET) problems.push('OIDC_CLIENT_SECRET is required with OIDC_CLIENT_ID');
    try {
      if (new URL(issuer).protocol !== 'https:') problems.push('OIDC_ISSUER must be an https URL');
    } catch {
      problems.push(`OIDC_ISSUER is not a URL (got "${issuer}")`);
    }
    oidc = { issuer, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET ?? '' };
  } else if (env.OIDC_ISSUER || env.OIDC_CLIENT_SECRET) {
    problems.push('OIDC_CLIENT_ID is required with OIDC_ISSUER or OIDC_CLIENT_SECRET');
  }

  const smtpUrl = schemeUrl('SMTP_URL', ['smtp', 'smtps'], 'an smtp:// or smtps:// URL');
  const mailFrom = env.MAIL_FROM || 'FrameMerch <no-reply@framemerch.local>';

  let sessionDays = 30;
  if (env.SESSION_DAYS) {
    sessionDays = Number(env.SESSION_DAYS);
    if (!Number.isInteger(sessionDays) || sessionDays < 1 || sessionDays > 365) {
      problems.push(`SESSION_DAYS must be a whole number from 1 to 365 (got "${env.SESSION_DAYS}")`);
      sessionDays = 30;
    }
  }

  let s3: Config['s3'] = null;
  if (env.S3_BUCKET) {
    const missing = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((k) => !env[k]);
    if (missing.length > 0) problems.push(`S3_BUCKET needs ${missing.join(', ')}`);
    for (const name of ['S3_ENDPOINT', 'S3_PUBLIC_URL']) {
      if (!env[name]) continue;
      try {
        const u = new URL(env[name]);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
      } catch {
        problems.push(`${name} must be an http(s) URL`);
      }
    }
    s3 = {
      endpoint: env.S3_ENDPOINT ?? '',
      publicUrl: env.S3_PUBLIC_URL || (env.S3_ENDPOINT ?? ''),
      bucket: env.S3_BUCKET,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
    };
  }

  let stripe: Config['stripe'] = null;
  if (env.STRIPE_SECRET_KEY) {
    if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(env.STRIPE_SECRET_KEY)) problems.push('STRIPE_SECRET_KEY must look like sk_test_... or sk_live_...');
    if (!env.STRIPE_WEBHOOK_SECRET) problems.push('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY');
    stripe = { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '' };
  } else if (env.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_SECRET_KEY is required with STRIPE_WEBHOOK_SECRET');
  }

  const printful: Config['printful'] = env.PRINTFUL_API_KEY
    ? {
        apiKey: env.PRINTFUL_API_KEY,
        storeId: env.PRINTFUL_STORE_ID || null,
        webhookToken: env.PRINTFUL_WEBHOOK_TOKEN || null,
        // Printful's API; another base (a local stand-in in tests) when PRINTFUL_API_URL says so.
        apiUrl: (env.PRINTFUL_API_URL || 'https://api.printful.com').replace(/\/+$/, ''),
      }
    : null;

  const wholeMs = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be a whole number of milliseconds from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const podStepMs = wholeMs('POD_STEP_MS', 60_000, 10, 86_400_000);
  const jobPollMs = wholeMs('JOB_POLL_MS', 1000, 10, 600_000);

  let payoutKeys: KeyRing | null = null;
  if (env.PAYOUT_ENCRYPTION_KEYS !== undefined && env.PAYOUT_ENCRYPTION_KEYS.trim() !== '') {
    const parsed = parseKeyList(env.PAYOUT_ENCRYPTION_KEYS);
    if (parsed.ring) payoutKeys = parsed.ring;
    else {
      const example = 'k2:<base64 key>,k1:<base64 key>, the current key first; make a key with `openssl rand -base64 32`';
      problems.push(`PAYOUT_ENCRYPTION_KEYS must be id:key pairs of 32-byte keys (${example}): ${parsed.problems.join('; ')}`);
    }
  }

  let paypal: Config['paypal'] = null;
  if (env.PAYPAL_CLIENT_ID) {
    const missing = ['PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'].filter((k) => !env[k]);
    if (missing.length > 0) problems.push(`PAYPAL_CLIENT_ID needs ${missing.join(', ')}`);
    const apiBase = (env.PAYPAL_API_BASE || 'https://api-m.paypal.com').replace(/\/+$/, '');
    try {
      const u = new URL(apiBase);
      // The client secret travels to this address: https, or http to this machine only (a local stand-in).
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
      if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback)) throw new Error('scheme');
    } catch {
      problems.push(`PAYPAL_API_BASE must be an https URL (got "${env.PAYPAL_API_BASE}")`);
    }
    paypal = { clientId: env.PAYPAL_CLIENT_ID, clientSecret: env.PAYPAL_CLIENT_SECRET ?? '', webhookId: env.PAYPAL_WEBHOOK_ID ?? '', apiBase };
  } else if (env.PAYPAL_CLIENT_SECRET || env.PAYPAL_WEBHOOK_ID || env.PAYPAL_API_BASE) {
    problems.push('PAYPAL_CLIENT_ID is required with PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID or PAYPAL_API_BASE');
  }

  let stripeConnect: Config['stripeConnect'] = null;
  if (env.STRIPE_CONNECT_WEBHOOK_SECRET) {
    const webhookSecrets = env.STRIPE_CONNECT_WEBHOOK_SECRET.split(',').map((s) => s.trim()).filter(Boolean);
    if (!env.STRIPE_SECRET_KEY) problems.push('STRIPE_SECRET_KEY is required with STRIPE_CONNECT_WEBHOOK_SECRET');
    if (webhookSecrets.length === 0 || webhookSecrets.some((s) => !/^whsec_[A-Za-z0-9_]+$/.test(s))) {
      problems.push('STRIPE_CONNECT_WEBHOOK_SECRET must be one or more whsec_... secrets, separated by commas');
    }
    stripeConnect = { secretKey: env.STRIPE_SECRET_KEY ?? '', webhookSecrets };
  }

  let nacha: Config['nacha'] = null;
  const NACHA_VARS = ['NACHA_IMMEDIATE_DESTINATION', 'NACHA_IMMEDIATE_ORIGIN', 'NACHA_COMPANY_NAME', 'NACHA_COMPANY_ID', 'NACHA_ODFI'] as const;
  const nachaGiven = NACHA_VARS.filter((k) => env[k]);
  if (nachaGiven.length > 0) {
    const missing = NACHA_VARS.filter((k) => !env[k]);
    if (missing.length > 0) problems.push(`ACH payouts by NACHA file need all of ${NACHA_VARS.join(', ')} (missing ${missing.join(', ')})`);
    const destination = (env.NACHA_IMMEDIATE_DESTINATION ?? '').trim();
    const origin = (env.NACHA_IMMEDIATE_ORIGIN ?? '').trim();
    const companyName = (env.NACHA_COMPANY_NAME ?? '').trim().toUpperCase();
    const companyId = (env.NACHA_COMPANY_ID ?? '').trim();
    const odfi = (env.NACHA_ODFI ?? '').trim();
    if (env.NACHA_IMMEDIATE_DESTINATION && !abaChecksumValid(destination)) {
      problems.push('NACHA_IMMEDIATE_DESTINATION must be the 9-digit routing number of the bank the files go to (its check digit right)');
    }
    if (env.NACHA_IMMEDIATE_ORIGIN && !/^[0-9]{9,10}$/.test(origin)) problems.push('NACHA_IMMEDIATE_ORIGIN must be 9 or 10 digits (as the bank assigned it)');
    if (env.NACHA_COMPANY_NAME && !/^[A-Z0-9 &.,'-]{1,16}$/.test(companyName)) problems.push('NACHA_COMPANY_NAME must be 1 to 16 letters, digits, spaces or & . , \' -');
    if (env.NACHA_COMPANY_ID && !/^[A-Z0-9]{1,10}$/i.test(companyId)) problems.push('NACHA_COMPANY_ID must be 1 to 10 letters or digits (as the bank assigned it)');
    if (env.NACHA_ODFI && !(/^[0-9]{8}$/.test(odfi) || abaChecksumValid(odfi))) {
      problems.push("NACHA_ODFI must be the platform bank's routing number (9 digits, its check digit right) or its first 8 digits");
    }
    nacha = { immediateDestination: destination, immediateOrigin: origin, companyName, companyId: companyId.toUpperCase(), odfi: odfi.slice(0, 8) };
  }
  const embeddedPayoutSettleMs = wholeMs('EMBEDDED_PAYOUT_SETTLE_MS', 60_000, 10, 86_400_000);
  const testClock = bool(env, 'TEST_CLOCK', false, problems);
  if (testClock && (stripe || paypal || stripeConnect || nacha)) {
    problems.push('TEST_CLOCK works only with the embedded payment and payout providers: unset it, or the Stripe, PayPal and NACHA settings');
  }

  const webDistRaw = env.WEB_DIST ?? 'dist/web';
  const config: Config = {
    host,
    port,
    publicUrl,
    dataDir: path.resolve(cwd, env.DATA_DIR || 'data'),
    databaseUrl,
    databaseDirectUrl,
    logLevel,
    seedDemo: bool(env, 'SEED_DEMO', true, problems),
    adminPassword,
    ffmpegPath: env.FFMPEG_PATH || null,
    ffprobePath: env.FFPROBE_PATH || null,
    readCacheMs,
    oidc,
    smtpUrl,
    mailFrom,
    sessionDays,
    s3,
    webDist: webDistRaw === '' || webDistRaw === 'none' ? null : path.resolve(cwd, webDistRaw),
    stripe,
    printful,
    podStepMs,
    jobPollMs,
    checkoutLimitLoopback: bool(env, 'CHECKOUT_LIMIT_LOOPBACK', true, problems),
    authLimitLoopback: bool(env, 'AUTH_LIMIT_LOOPBACK', true, problems),
    payoutKeys,
    paypal,
    stripeConnect,
    nacha,
    embeddedPayoutSettleMs,
    testClock,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
