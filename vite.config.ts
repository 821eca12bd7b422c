/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { modelFiles } from './scripts/vite-plugin-models.ts';
import { serviceWorker } from './scripts/vite-plugin-service-worker.ts';

const apiPort = Number(process.env.API_PORT ?? 3001);

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  // The AI upscale's model files and its worker (TensorFlow.js) are served by the app and
  // fetched only when an upscale runs, never precached.
  plugins: [react(), modelFiles(), serviceWorker({ exclude: /^models\/|^assets\/upscale\.worker-/ })],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  worker: { format: 'es' },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
      '/media': `http://127.0.0.1:${apiPort}`,
      // The embedded payment page and the print-on-demand simulator's tracking pages are served by the API.
      '/pay': `http://127.0.0.1:${apiPort}`,
      '/track': `http://127.0.0.1:${apiPort}`,
    },
  },
  test: {
    root: '.',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'workers/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'api/**/*.unit.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['api/**/*.test.ts'],
          exclude: ['api/**/*.unit.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
          globalSetup: ['api/test/global-setup.ts'],
        },
      },
    ],
  },
});
