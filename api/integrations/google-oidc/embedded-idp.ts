/**
 * The embedded identity provider: a certified OpenID provider (oidc-provider) served by this
 * process under /oidc, used when no outside provider is configured. Its sign-in page takes a
 * name and an email for a local account. The app signs in against it over the same OpenID
 * Connect code path it uses with Google. It does not vouch for the email (email_verified is
 * false), so it can never take over an account that already has that email.
 * Its records (sessions, interactions, codes, grants) and accounts are in the database, so a
 * restart or a second process continues a sign-in in progress.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import Provider, { type Configuration } from 'oidc-provider';
import { ensureSetting } from '../../platform/settings/repository.ts';
import { databaseAdapter } from './idp-adapter.ts';
import { deleteIdpRecord, findIdpAccount, saveIdpAccount } from './repository.ts';
import type { DB } from '../../platform/db/schema.ts';
import { escapeHtml } from '../../platform/http/html-page.ts';

export const IDP_MOUNT = '/oidc';
export const IDP_CLIENT_ID = 'framemerch-web';
const SETTINGS_KEY = 'idp.keys';

interface IdpKeys {
  jwk: Record<string, unknown>;
  cookieKey: string;
  clientSecret: string;
}

/** Keys made once and kept in the database, so restarts and several processes agree. */
function loadKeys(db: Kysely<DB>): Promise<IdpKeys> {
  return ensureSetting<IdpKeys>(db, SETTINGS_KEY, () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      jwk: { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' },
      cookieKey: randomBytes(32).toString('base64url'),
      clientSecret: randomBytes(32).toString('base64url'),
    };
  });
}

export function localSubject(email: string): string {
  return `local-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/oidc-login/style.css"></head>
<body><main class="card"><p class="brand">FrameMerch</p>${body}</main></body></html>`;
}

function loginForm(uid: string, values: { name?: string; email?: string }, error?: string): string {
  return page(
    'Sign in to FrameMerch',
    `<h1>Sign in to FrameMerch</h1>
<p class="lead">Local account: enter your name and email. No password is needed on this server.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oidc-login/${escapeHtml(uid)}">
<label for="name">Name</label><input id="name" name="name" autocomplete="name" required maxlength="100" value="${escapeHtml(values.name ?? '')}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(values.email ?? '')}">
<button type="submit">Continue</button>
</form>`,
  );
}

const STYLE = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f4f8;color:#1b1b28;display:grid;place-items:center;min-height:100vh}
.card{background:#fff;border-radius:16px;box-shadow:0 8px 30px rgba(20,20,50,.12);padding:32px;width:min(400px,90vw)}
.brand{color:#6d28d9;font-weight:800;margin:0 0 8px}h1{font-size:1.4rem;margin:0 0 8px}.lead{color:#555;margin:0 0 20px}
label{display:block;font-weight:600;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:10px 12px;border:1px solid #ccd;border-radius:8px;font-size:1rem}
button{margin-top:20px;width:100%;padding:12px;border:0;border-radius:8px;background:#6d28d9;color:#fff;font-size:1rem;font-weight:700;cursor:pointer}
.error{background:#fdecec;color:#a11;padding:10px 12px;border-radius:8px}`;

export interface EmbeddedIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Ends the provider's session of this browser: its record and its cookies. */
  endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** The provider's session cookie (oidc-provider's default name) and the companions it sets beside it. */
const SESSION_COOKIE = '_session';
const SESSION_COOKIES = [SESSION_COOKIE, `${SESSION_COOKIE}.sig`, `${SESSION_COOKIE}.legacy`, `${SESSION_COOKIE}.legacy.sig`];
/** The provider sets them on the whole site. */
const SESSION_COOKIE_PATH = '/';

/** Mounts the provider and its sign-in page on the app; returns what the client side needs. */
export async function mountEmbeddedIdp(app: FastifyInstance, opts: { publicUrl: string; redirectUri: string }): Promise<EmbeddedIdp> {
  const keys = await loadKeys(app.db);
  const issuer = `${opts.publicUrl}${IDP_MOUNT}`;
  const configuration: Configuration = {
    adapter: databaseAdapter(app.db),
    ttl: {
      Interaction: 15 * 60,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      AuthorizationCode: 60,
      AccessToken: 10 * 60,
      IdToken: 10 * 60,
    },
    clients: [
      {
        client_id: IDP_CLIENT_ID,
        client_secret: keys.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    // Put the email and name in the ID token itself, as Google does.
    conformIdTokenClaims: false,
    jwks: { keys: [keys.jwk as never] },
    cookies: { keys: [keys.cookieKey] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/oidc-login/${interaction.uid}` },
    async findAccount(_ctx, subject) {
      const account = await findIdpAccount(app.db, subject);
      if (!account) return undefined;
      return {
        accountId: subject,
        claims: async () => ({ sub: subject, email: account.email, email_verified: false, name: account.name }),
      };
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page('Sign-in error', `<h1>Sign-in could not continue</h1><p class="error">${escapeHtml(String(out.error_description ?? out.error ?? 'Unknown error'))}</p><p><a href="/">Back to FrameMerch</a></p>`);
    },
  };
  const provider = new Provider(issuer, configuration);
  const handler = provider.callback();

  // The provider reads its own request bodies (token endpoint); leave the stream to it.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    scope.all(`${IDP_MOUNT}/*`, { schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(IDP_MOUNT.length) || '/';
      handler(raw, reply.raw);
    });
  });

  const finish = async (request: FastifyRequest, reply: FastifyReply, email: string, name: string) => {
    const subject = localSubject(email);
    await saveIdpAccount(app.db, { subject, email: email.trim(), name: name.trim() });
    const details = await provider.interactionDetails(request.raw, reply.raw);
    const grant = new provider.Grant({ accountId: subject, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    reply.hijack();
    await provider.interactionFinished(
      request.raw,
      reply.raw,
      { login: { accountId: subject }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  app.get('/oidc-login/style.css', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLE),
  );

  app.get<{ Params: { uid: string } }>('/oidc-login/:uid', { schema: { hide: true } }, async (request, reply) => {
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      if (details.uid !== request.params.uid) throw new Error('interaction mismatch');
    } catch {
      return reply.code(400).type('text/html; charset=utf-8').send(
        page('Sign-in expired', '<h1>This sign-in has expired</h1><p><a href="/">Back to FrameMerch</a> and press Sign In again.</p>'),
      );
    }
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(loginForm(request.params.uid, {}));
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.post<{ Params: { uid: string }; Body: { name?: string; email?: string } }>(
      '/oidc-login/:uid',
      { schema: { hide: true } },
      async (request, reply) => {
        const name = String(request.body?.name ?? '').trim();
        const email = String(request.body?.email ?? '').trim();
        const problem = !name ? 'Please enter your name.' : !EMAIL.test(email) ? 'Please enter a valid email address' : null;
        if (problem) {
          return reply.code(400).type('text/html; charset=utf-8').send(loginForm(request.params.uid, { name, email }, problem));
        }
        try {
          await finish(request, reply, email, name.slice(0, 100));
        } catch {
          if (!reply.sent) {
            return reply.code(400).type('text/html; charset=utf-8').send(
              page('Sign-in expired', '<h1>This sign-in has expired</h1><p><a href="/">Back to FrameMerch</a> and press Sign In again.</p>'),
            );
          }
        }
      },
    );
  });

  const endSession = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = request.cookies[SESSION_COOKIE];
    if (id) await deleteIdpRecord(app.db, 'Session', id);
    for (const name of SESSION_COOKIES) if (request.cookies[name] !== undefined) reply.clearCookie(name, { path: SESSION_COOKIE_PATH });
  };

  return { issuer, clientId: IDP_CLIENT_ID, clientSecret: keys.clientSecret, endSession };
}
