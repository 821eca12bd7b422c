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

export interface ServerGroup {
  children: ChildProcess[];
  /** SIGTERM to every process still running, resolved once all have exited. */
  stop(): Promise<void>;
}

/**
 * One server process per port with the same `env`, each one's last 4 KB of log kept, resolved
 * once every one is healthy (a failure names the process's log). `group.children` is filled as
 * they start, so a failed start can still be stopped.
 */
export async function startServers(env: Record<string, string>, ports: readonly number[], group: ServerGroup = serverGroup()): Promise<ServerGroup> {
  const logs = ports.map((port) => {
    const child = startServer({ ...env, PORT: String(port), LOG_LEVEL: 'error' }, { output: 'pipe' });
    let log = '';
    const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    group.children.push(child);
    return () => log;
  });
  await Promise.all(ports.map((port, i) => waitForHealth(port, group.children[i]!).catch((err: Error) => Promise.reject(new Error(`${err.message}: ${logs[i]!()}`)))));
  return group;
}

export function serverGroup(): ServerGroup {
  const children: ChildProcess[] = [];
  return {
    children,
    stop: async () => {
      await Promise.all(
        children.map(async (c) => {
          if (c.exitCode === null) c.kill('SIGTERM');
          await exited(c);
        }),
      );
    },
  };
}
