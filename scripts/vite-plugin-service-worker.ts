/**
 * Builds the service worker (web/sw/sw.ts) into the root of the built app as /sw.js, with the
 * list of files to precache taken from what the build wrote: index.html, public files, every
 * hashed asset, the workers and what they load. Large files (the ffmpeg core) are listed apart,
 * for the worker's second, non-blocking phase. The list's hash is the cache version, so every
 * build that changes any file gets a new sw.js and replaces the old cache.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { transformWithOxc, type Plugin } from 'vite';

export interface ServiceWorkerOptions {
  /** The worker's source, relative to the folder of vite.config.ts. */
  source?: string;
  /** Files cached after activation rather than at install. */
  deferred?: RegExp;
  /** Files never precached (build-relative paths): loaded only when a feature asks for them. */
  exclude?: RegExp;
}

const OUTPUT = 'sw.js';
const SKIP = /(^|\/)\.vite\/|\.map$/;

async function files(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await files(dir, rel)));
    else found.push(rel);
  }
  return found;
}

export function serviceWorker(options: ServiceWorkerOptions = {}): Plugin {
  const source = options.source ?? 'web/sw/sw.ts';
  const deferred = options.deferred ?? /(\.wasm|\/ffmpeg-core[^/]*\.js)$/;
  let root = process.cwd();
  return {
    name: 'framemerch:service-worker',
    apply: 'build',
    configResolved(config) {
      // Paths are relative to the project, where vite.config.ts lives.
      if (config.configFile) root = path.dirname(config.configFile);
    },
    async writeBundle(output) {
      const outDir = output.dir;
      if (!outDir) return;
      const list = (await files(outDir)).filter((f) => f !== OUTPUT && !SKIP.test(f) && !options.exclude?.test(f)).sort();
      const hash = createHash('sha256');
      for (const file of list) hash.update(file).update('\0').update(createHash('sha256').update(await readFile(path.join(outDir, file))).digest());
      const urls = list.map((f) => `/${f}`);
      const precache = {
        version: hash.digest('hex').slice(0, 16),
        shell: urls.filter((u) => !deferred.test(u)),
        deferred: urls.filter((u) => deferred.test(u)),
      };
      const file = path.resolve(root, source);
      const { code } = await transformWithOxc(await readFile(file, 'utf8'), file, { lang: 'ts', target: 'es2022' });
      const body = code.replace(/^export\s*\{\s*\};?\s*$/m, '');
      await writeFile(path.join(outDir, OUTPUT), `(() => {\nconst PRECACHE = ${JSON.stringify(precache)};\n${body}\n})();\n`);
    },
  };
}
