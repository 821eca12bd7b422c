/**
 * Serves the AI upscale's model files from the app itself: copies the ESRGAN slim models (2x and
 * 4x, a model.json and its weights each) out of node_modules into the build under
 * /models/esrgan-slim/, and answers the same paths from node_modules on the dev server. Nothing
 * imports them, so no page loads them until an upscale fetches them; the service worker leaves
 * them out of its precache (see vite.config.ts).
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

export interface ModelFilesOptions {
  /** The URL folder the files are served under. */
  base?: string;
  /** The model package's folders to serve (x2, x4...). */
  scales?: string[];
}

const TYPES: Record<string, string> = { '.json': 'application/json', '.bin': 'application/octet-stream' };

function modelsDir(): string {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json; its ESM entry sits three folders below dist/.
  const entry = require.resolve('@upscalerjs/esrgan-slim');
  const root = entry.slice(0, entry.indexOf(`${path.sep}dist${path.sep}`));
  return path.join(root, 'models');
}

export function modelFiles(options: ModelFilesOptions = {}): Plugin {
  const base = (options.base ?? '/models/esrgan-slim').replace(/\/$/, '');
  const scales = options.scales ?? ['x2', 'x4'];
  const dir = modelsDir();
  return {
    name: 'framemerch:model-files',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '').split('?')[0]!;
        if (!url.startsWith(`${base}/`)) return next();
        const [scale, file, ...rest] = url.slice(base.length + 1).split('/');
        if (!scale || !file || rest.length || !scales.includes(scale) || !/^[\w.-]+\.(json|bin)$/.test(file)) return next();
        const stream = createReadStream(path.join(dir, scale, file));
        stream.on('error', () => next());
        stream.on('open', () => {
          res.setHeader('content-type', TYPES[path.extname(file)] ?? 'application/octet-stream');
          stream.pipe(res);
        });
      });
    },
    async generateBundle() {
      for (const scale of scales) {
        for (const file of await readdir(path.join(dir, scale))) {
          this.emitFile({ type: 'asset', fileName: `${base.slice(1)}/${scale}/${file}`, source: await readFile(path.join(dir, scale, file)) });
        }
      }
    },
  };
}
