/** The real server as a child process, for the tests that kill it. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * `output: 'pipe'` hands the server's stdout and stderr (its log) to the caller as child.stdout and
 * child.stderr, which it must then read; by default they are dropped.
 */
export function startServer(env: Record<string, string>, opts: { output?: 'ignore' | 'pipe' } = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], {
    cwd: ROOT,
    stdio: opts.output === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'ignore',
    env: { ...process.env, WEB_DIST: 'none', LOG_LEVEL: 'silent', ...env },
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

export async function waitForHealth(port: number, child: ChildProcess, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}
