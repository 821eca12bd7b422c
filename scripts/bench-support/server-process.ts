/** The server a benchmark starts in a process of its own: waiting until it serves, and stopping it gently. */
import type { ChildProcess } from 'node:child_process';

/** Resolves once GET /api/health answers 200; throws when the process exits first or after `timeoutMs`. */
export async function waitHealthy(origin: string, child: ChildProcess, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer on ${origin} within ${timeoutMs / 1000} s`);
}

/** SIGTERM (the server closes gracefully), resolved once the process has exited. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
