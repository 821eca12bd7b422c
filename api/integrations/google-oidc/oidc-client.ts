/**
 * The OpenID Connect relying party, the same code for Google and the embedded provider:
 * discovery, authorization code flow with PKCE, state and nonce, and the ID token checked
 * (issuer, audience, expiry, nonce, signature) by openid-client.
 */
import * as client from 'openid-client';

export type FetchImpl = (url: string, init: RequestInit) => Promise<Response>;

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Plain http is allowed only for the embedded provider on this server. */
  allowHttp: boolean;
  /**
   * Sent with every sign-in, so a provider session left in the browser (a shared computer) never
   * signs the next person in unasked: Google's `select_account` (its account chooser), the
   * embedded provider's `login` (its form).
   */
  prompt: 'select_account' | 'login';
  fetch?: FetchImpl;
}

/** What the provider vouches for about the person signing in; the accounts module decides what it means. */
export interface OidcClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

export interface StartedFlow {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export class OidcClient {
  #config: Promise<client.Configuration> | null = null;

  constructor(private readonly opts: OidcClientOptions) {}

  #configuration(): Promise<client.Configuration> {
    this.#config ??= (async () => {
      const options: client.DiscoveryRequestOptions = {};
      if (this.opts.allowHttp) options.execute = [client.allowInsecureRequests];
      if (this.opts.fetch) options[client.customFetch] = this.opts.fetch as client.CustomFetch;
      const config = await client.discovery(new URL(this.opts.issuer), this.opts.clientId, this.opts.clientSecret, undefined, options);
      if (this.opts.fetch) config[client.customFetch] = this.opts.fetch as client.CustomFetch;
      return config;
    })().catch((err) => {
      this.#config = null; // try discovery again on the next sign-in
      throw err;
    });
    return this.#config;
  }

  async start(): Promise<StartedFlow> {
    const config = await this.#configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.opts.redirectUri,
      scope: 'openid email profile',
      prompt: this.opts.prompt,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /** Exchanges the code; throws when the state, nonce, code or ID token does not check out. */
  async finish(callbackUrl: URL, flow: { state: string; nonce: string; codeVerifier: string }): Promise<OidcClaims> {
    const config = await this.#configuration();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('The identity provider returned no ID token');
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: str(claims.email),
      emailVerified: claims.email_verified === true,
      name: str(claims.name),
      picture: str(claims.picture),
    };
  }
}
