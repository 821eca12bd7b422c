/**
 * A tiny browser for inject(): keeps cookies between requests and sends the Origin a page of
 * this site would, so tests can walk through sign-in flows without a network.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

export const ORIGIN = 'http://localhost:3000';

export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  #store(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{ name: string; value: string; expires?: Date; maxAge?: number }>) {
      const gone = c.value === '' || (c.expires && c.expires.getTime() < Date.now()) || c.maxAge === 0;
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async request(opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    const method = (opts.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { host: 'localhost:3000', ...(opts.headers as Record<string, string>) };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (method !== 'GET' && method !== 'HEAD' && !('origin' in headers)) headers.origin = ORIGIN;
    const res = await this.app.inject({ ...opts, method: method as 'GET', headers });
    this.#store(res);
    return res;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, payload?: unknown) {
    return this.request({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });
  }

  /** Follows redirects on this site (GET), returning the last response. */
  async follow(res: LightMyRequestResponse, max = 10): Promise<LightMyRequestResponse> {
    let current = res;
    for (let i = 0; i < max && current.statusCode >= 300 && current.statusCode < 400; i++) {
      const location = String(current.headers.location);
      const target = new URL(location, ORIGIN);
      if (target.origin !== ORIGIN) return current;
      current = await this.get(`${target.pathname}${target.search}`);
    }
    return current;
  }
}

/** Walks the embedded provider's sign-in: start, the provider's page, the form, back to the callback. */
export async function signInWithProvider(browser: Browser, opts: { name: string; email: string; returnUrl?: string }) {
  const start = await browser.get(`/api/auth/google/login?return_url=${encodeURIComponent(opts.returnUrl ?? '/')}`);
  if (start.statusCode !== 302) throw new Error(`login start answered ${start.statusCode}: ${start.body}`);
  const authorize = new URL(String(start.headers.location));
  const toForm = await browser.get(`${authorize.pathname}${authorize.search}`);
  // The app asks for the provider's form every time (prompt=login), signed in there or not.
  const formUrl = new URL(String(toForm.headers.location ?? ''), ORIGIN);
  const form = await browser.get(formUrl.pathname);
  if (form.statusCode !== 200 || !form.body.includes('name="email"')) throw new Error(`no sign-in form: ${form.statusCode}`);
  const submitted = await browser.request({
    method: 'POST',
    url: formUrl.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ name: opts.name, email: opts.email }).toString(),
  });
  // Follow the provider's redirects until it sends the browser to the callback.
  let current = submitted;
  for (let i = 0; i < 10; i++) {
    const location = String(current.headers.location ?? '');
    if (!location) throw new Error(`provider stopped at ${current.statusCode}: ${current.body.slice(0, 300)}`);
    const target = new URL(location, ORIGIN);
    if (target.pathname === '/api/auth/google/callback') return { callbackUrl: `${target.pathname}${target.search}`, state: start };
    current = await browser.get(`${target.pathname}${target.search}`);
  }
  throw new Error('provider did not return to the callback');
}
