/**
 * What the browser benches (bench:print, bench:upscale) share: a page of their own, built by Vite
 * like the app; a local server for it, the bench's inputs and the results the page posts back;
 * and headless chromium to open it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build, type PluginOption } from 'vite';

/** Builds the page whose index.html is in `root` into `outDir` (emptied first). */
export async function buildBenchPage(root: string, outDir: string, options: { plugins?: PluginOption[]; chunkSizeWarningLimit?: number } = {}): Promise<void> {
  await build({
    configFile: false,
    root,
    base: '/',
    logLevel: 'warn',
    publicDir: false,
    plugins: options.plugins ?? [],
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, ...(options.chunkSizeWarningLimit ? { chunkSizeWarningLimit: options.chunkSizeWarningLimit } : {}) },
  });
}

/** Bytes the page can GET, and their content type. */
export interface BenchInput {
  body: Buffer;
  type: string;
}

export interface BenchPageServer {
  /** http://127.0.0.1:port */
  base: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
};

/**
 * Serves the built page in `pageDir` on 127.0.0.1 (any free port): its files, the `inputs` by
 * path (read at each request, so they may be added later), and every POST to `resultPath` or
 * below it handed to `onResult` with its body. Files go with `Connection: close` (chromium keeps
 * no idle socket to a server the bench ends). Anything else is a 404.
 */
export function serveBenchPage(
  pageDir: string,
  inputs: ReadonlyMap<string, BenchInput>,
  onResult: (pathname: string, body: Buffer) => void,
  resultPath = '/result',
): Promise<BenchPageServer> {
  const root = path.resolve(pageDir);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const input = inputs.get(url.pathname);
    if (input && req.method === 'GET') {
      res.writeHead(200, { 'content-type': input.type }).end(input.body);
      return;
    }
    if (req.method === 'POST' && (url.pathname === resultPath || url.pathname.startsWith(`${resultPath}/`))) {
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        onResult(url.pathname, Buffer.concat(parts));
        res.writeHead(204).end();
      });
      return;
    }
    const file = path.join(root, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(root + path.sep) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', connection: 'close' }).end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    ),
  );
}

/**
 * Headless chromium: Debian's (or CHROMIUM_PATH) where there is one, else Playwright's own, with
 * background networking off so it calls no host this machine cannot reach.
 */
export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
