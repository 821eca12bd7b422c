import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelFiles } from './vite-plugin-models.ts';
import { serviceWorker } from './vite-plugin-service-worker.ts';

describe('the upscale model files', () => {
  it('are emitted into the build under /models/esrgan-slim/, 2x and 4x only', async () => {
    const emitted: { fileName: string; size: number }[] = [];
    const plugin = modelFiles();
    const generate = plugin.generateBundle as unknown as (this: unknown) => Promise<void>;
    await generate.call({ emitFile: (f: { fileName: string; source: Uint8Array }) => emitted.push({ fileName: f.fileName, size: f.source.length }) });
    expect(emitted.map((f) => f.fileName).sort()).toEqual([
      'models/esrgan-slim/x2/group1-shard1of1.bin',
      'models/esrgan-slim/x2/model.json',
      'models/esrgan-slim/x4/group1-shard1of1.bin',
      'models/esrgan-slim/x4/model.json',
    ]);
    expect(emitted.every((f) => f.size > 1000)).toBe(true);
  });

  it('are left out of the service worker precache', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sw-'));
    try {
      await mkdir(path.join(dir, 'models/esrgan-slim/x2'), { recursive: true });
      await mkdir(path.join(dir, 'assets'));
      await writeFile(path.join(dir, 'index.html'), '<!doctype html>');
      await writeFile(path.join(dir, 'assets/index-abc.js'), '1');
      await writeFile(path.join(dir, 'assets/upscale.worker-abc.js'), '2');
      await writeFile(path.join(dir, 'models/esrgan-slim/x2/model.json'), '{}');
      const plugin = serviceWorker({ exclude: /^models\/|^assets\/upscale\.worker-/ });
      const write = plugin.writeBundle as unknown as (output: { dir: string }) => Promise<void>;
      await write({ dir });
      const sw = await readFile(path.join(dir, 'sw.js'), 'utf8');
      expect(sw).toContain('"/assets/index-abc.js"');
      expect(sw).not.toContain('/models/');
      expect(sw).not.toContain('upscale.worker');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
