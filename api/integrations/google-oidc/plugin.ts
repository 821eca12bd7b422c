/**
 * Sign-in with an identity provider: Google (OIDC_CLIENT_ID and friends) or, with no outside
 * provider configured, the embedded one mounted on this app. Both go through OidcClient.
 * The app reaches the embedded provider in-process (inject), never over the network.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { mountEmbeddedIdp } from './embedded-idp.ts';
import { OidcClient, type FetchImpl } from './oidc-client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    oidc: OidcClient;
    identityProvider: 'google' | 'embedded';
    /** Signing out of the app ends the embedded provider's session in this browser too (Google's is the person's own: its chooser is asked for instead). */
    endIdentitySession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

export const OIDC_CALLBACK_PATH = '/api/auth/google/callback';

async function identity(app: FastifyInstance) {
  const { config } = app;
  const redirectUri = `${config.publicUrl}${OIDC_CALLBACK_PATH}`;
  if (config.oidc) {
    app.decorate('identityProvider', 'google');
    app.decorate('oidc', new OidcClient({ ...config.oidc, redirectUri, allowHttp: false, prompt: 'select_account' }));
    app.decorate('endIdentitySession', async () => {});
    return;
  }
  const idp = await mountEmbeddedIdp(app, { publicUrl: config.publicUrl, redirectUri });
  const publicOrigin = new URL(config.publicUrl).origin;
  const inProcess: FetchImpl = async (url, init) => {
    const target = new URL(url);
    if (target.origin !== publicOrigin) throw new Error(`The embedded provider does not call ${target.origin}`);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    const res = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: `${target.pathname}${target.search}`,
      headers: { ...headers, host: target.host },
      ...(body ? { payload: body } : {}),
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) out.append(k, String(item));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  };
  app.decorate('identityProvider', 'embedded');
  app.decorate('oidc', new OidcClient({ ...idp, redirectUri, allowHttp: true, fetch: inProcess, prompt: 'login' }));
  app.decorate('endIdentitySession', idp.endSession);
}

export default fp(identity, { name: 'identity', dependencies: ['context', 'auth'] });
