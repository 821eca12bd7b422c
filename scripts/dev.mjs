// Development: the API on API_PORT (3001) and Vite's dev server on 5173 with the API behind its proxy.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.API_PORT ?? '3001';
const procs = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', path.join(root, 'api/server.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { CHECKOUT_LIMIT_LOOPBACK: 'false', AUTH_LIMIT_LOOPBACK: 'false', ...process.env, PORT: apiPort, WEB_DIST: 'none', PUBLIC_URL: 'http://localhost:5173' },
  }),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
procs.forEach((p) => p.on('exit', stop));
