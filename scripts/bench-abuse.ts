/**
 * Abuse: what the server does with hostile uploads. The real server runs in its own process on a
 * free port with a fresh data directory (and its own TMPDIR); a creator is signed in; then:
 *
 * 1. Malformed multipart: ABUSE_REQUESTS (20,400) bodies mutated with a fixed seed from valid
 *    bodies of every multipart route (POST /api/videos, POST /api/studio/profile/avatar and
 *    /cover), sent over raw sockets, 16 at a time, each with a 10 s deadline: boundaries dropped,
 *    duplicated and corrupted, Content-Disposition missing or garbage (among them a part with no
 *    Content-Disposition of 16 KB and more), truncation, wrong or missing boundary parameters,
 *    huge header lines, many parts, bit flips, inserted bytes, Content-Length shorter and longer
 *    than the body, chunked bodies good and bad. Musts: no 5xx, no answer slower than 5 s, no
 *    file descriptors and no temporary files left behind.
 * 2. Image flood: 20 uploads at once of a 7000x7000 (49 MP) PNG to each image route (data-URL
 *    screenshot to POST /api/create-product, avatar, video thumbnail), with GET /api/health probed
 *    every 50 ms. Musts: every upload refused, p99 time to refuse under 1 s, the server's RSS
 *    (sampled every 20 ms) at most 256 MB above where it started, health probes >= 99 % answered.
 * 3. Compression bombs: 10 GiB of zeros in about 10 MB of gzip (one gzip member of 10 MiB of
 *    zeros, repeated: gzip allows many members), the same in deflate (one byte-aligned block run,
 *    repeated) and in br, sent with Content-Encoding to a JSON route and an upload route. Must:
 *    refused (4xx) within 5 s, without the server's memory growing.
 *
 * Prints a summary with a PASS/FAIL line for each must and exits 1 when one fails. A request that
 * gets a 5xx, no answer, or a slow answer is saved under /tmp/abuse-repro/ (raw bytes as sent).
 *
 *   npm run bench:abuse
 *   ABUSE_SEED=7 ABUSE_REQUESTS=3000 npm run bench:abuse     another seed, fewer bodies
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { createUser } from '../api/modules/accounts/index.ts';
import { openDatabase } from '../api/platform/db/database.ts';
import { seededRandom } from '../api/test/seeded-random.ts';
import { migrate } from '../api/platform/db/migrate.ts';
import { findMediaTools, runFfmpeg } from '../api/platform/media/ffmpeg.ts';
import { createSession, SESSION_COOKIE } from '../api/platform/sessions/sessions.ts';
import { exited, waitForHealth } from '../api/test/server-process.ts';
import { MAX_SCREENSHOT_BYTES } from '../shared/schemas/products.ts';
import { UPLOAD_LIMITS } from '../shared/schemas/studio.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SEED = Number(process.env.ABUSE_SEED ?? 20_240_611) >>> 0;
const FUZZ_REQUESTS = Number(process.env.ABUSE_REQUESTS ?? 20_400);
/** Bounded; above 8 because about one body in twenty waits out the server's 1 s parser-stall guard, which costs no CPU. */
const CONCURRENCY = 16;
const DEADLINE_MS = 10_000;
const SLOW_MS = 5000;
/** A client that promised more body than it sent waits this long for an early answer, then half-closes. */
const HOLD_MS = 250;
const FD_ALLOWANCE = 8;
const FLOOD = 20;
const FLOOD_SIDE = 7000;
const RSS_LIMIT_MB = 256;
const BOMB_RSS_LIMIT_MB = 64;
const REPRO_DIR = '/tmp/abuse-repro';
const MAX_REPROS = 40;
const B = 'AbuseBoundary7MA4YWxkTrZu0gW';
const MB = 1024 * 1024;
const GiB = 1024 * MB;

const started = performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => n.toLocaleString('en-US');
const mb = (bytes: number) => (bytes / MB).toFixed(1);

// ---------------------------------------------------------------------------------------------
// A small seeded PRNG (mulberry32): the same bodies on every run with the same seed.

class Rand {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  weighted<T>(items: ReadonlyArray<readonly [number, T]>): T {
    let r = this.next() * items.reduce((s, [w]) => s + w, 0);
    for (const [w, v] of items) if ((r -= w) < 0) return v;
    return items[items.length - 1]![1];
  }
  bytes(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// The server process, measured from /proc.

function procStatus(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds used by the process and its waited-for children (ffprobe), from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command: state is field 3, so utime (14), stime (15), cutime (16), cstime (17) are at 11..14.
    return fields.slice(11, 15).reduce((s, v) => s + Number(v), 0) / 100;
  } catch {
    return 0;
  }
}

/** The worst delay of a 20 ms timer in this process, so a slow answer can be told from a busy client. */
function lagMonitor() {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 20);
    last = now;
  }, 20);
  return {
    take: () => {
      const w = worst;
      worst = 0;
      return w;
    },
    stop: () => clearInterval(timer),
  };
}

function openFds(pid: number): string[] {
  const dir = `/proc/${pid}/fd`;
  const out: string[] = [];
  for (const fd of readdirSync(dir)) {
    try {
      const target = readlinkSync(path.join(dir, fd));
      out.push(target.startsWith('socket:') ? 'socket' : target.startsWith('pipe:') ? 'pipe' : target.startsWith('anon_inode:') ? target : `file ${target}`);
    } catch {
      // closed while listed
    }
  }
  return out;
}

const TCP_STATES: Record<string, string> = { '01': 'ESTABLISHED', '02': 'SYN_SENT', '03': 'SYN_RECV', '04': 'FIN_WAIT1', '05': 'FIN_WAIT2', '06': 'TIME_WAIT', '07': 'CLOSE', '08': 'CLOSE_WAIT', '09': 'LAST_ACK', '0A': 'LISTEN', '0B': 'CLOSING' };

/** The process's TCP sockets on `port` other than the listening one: the peer's port and the state. */
function connectionsOn(pid: number, port: number): Array<{ peer: number; state: string }> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed while listed
    }
  }
  const out: Array<{ peer: number; state: string }> = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9]!)) continue;
      const local = parseInt(f[1]!.split(':')[1]!, 16);
      const state = TCP_STATES[f[3]!] ?? f[3]!;
      if (local === port && state !== 'LISTEN') out.push({ peer: parseInt(f[2]!.split(':')[1]!, 16), state });
    }
  }
  return out;
}

function fdKinds(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of list) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Files under dir, at any depth; top-level entries matching skip are left out. */
function countFiles(dir: string, skip?: RegExp): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (skip?.test(e.name)) continue;
    if (e.isDirectory()) n += countFiles(path.join(dir, e.name));
    else n++;
  }
  return n;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// ---------------------------------------------------------------------------------------------
// One request over a raw socket, with a deadline.

interface Exchange {
  /** The status of the first response line, or 0 when none came. */
  status: number;
  /** From the moment the client had sent all it would send (or the request started) to the answer, or to the close without one. */
  ms: number;
  /** From the start to the server closing the connection (or the deadline). */
  closeMs: number;
  timedOut: boolean;
  /** The connection was reset (ECONNRESET / EPIPE), before or after the answer. */
  reset: boolean;
  errorCode: string | null;
  /** Body bytes the socket accepted before it closed. */
  sentBytes: number;
  /** The client's port, to tell which request a connection left on the server belongs to. */
  localPort: number;
}

interface ExchangeOptions {
  /** Promised more body than sent: wait this long for an early answer, then half-close. */
  holdThenFinMs?: number;
  deadlineMs?: number;
  /** Send the head, wait this long, then the body. */
  pauseAfterHeadMs?: number;
  onConnect?: (localPort: number) => void;
}

function exchange(port: number, head: Buffer, body: Buffer[], opts: ExchangeOptions = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let from = t0;
    let status = 0;
    let answerAt = 0;
    let first = '';
    let reset = false;
    let errorCode: string | null = null;
    let timedOut = false;
    let finTimer: NodeJS.Timeout | undefined;
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.setNoDelay(true);
    let localPort = 0;
    const deadline = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, (opts.deadlineMs ?? DEADLINE_MS) + (opts.holdThenFinMs ?? 0));
    socket.on('data', (d: Buffer) => {
      if (status) return;
      first += d.toString('latin1', 0, Math.min(d.length, 32));
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(first);
      if (m) {
        status = Number(m[1]);
        answerAt = performance.now();
      } else if (first.length >= 16) status = -1; // bytes that are no HTTP answer
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      errorCode = err.code ?? err.message;
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
    });
    socket.on('close', () => {
      clearTimeout(deadline);
      clearTimeout(finTimer);
      const end = performance.now();
      resolve({
        status: Math.max(status, 0),
        ms: (answerAt || end) - from,
        closeMs: end - t0,
        timedOut,
        reset,
        errorCode,
        sentBytes: Math.max(0, socket.bytesWritten - head.length),
        localPort,
      });
    });
    socket.on('connect', async () => {
      localPort = socket.localPort ?? 0;
      opts.onConnect?.(localPort);
      const write = (chunk: Buffer) =>
        new Promise<boolean>((done) => {
          if (socket.destroyed || !socket.writable) return done(false);
          if (socket.write(chunk)) return done(true);
          const go = () => {
            socket.off('drain', go);
            socket.off('close', go);
            done(!socket.destroyed);
          };
          socket.on('drain', go);
          socket.on('close', go);
        });
      if (!(await write(head))) return;
      if (opts.pauseAfterHeadMs) await sleep(opts.pauseAfterHeadMs);
      for (const chunk of body) {
        // Large chunks in 1 MB slices, so an early answer is not stuck behind one huge write.
        for (let off = 0; off < chunk.length; off += MB) if (!(await write(chunk.subarray(off, off + MB)))) return;
      }
      from = performance.now();
      if (opts.holdThenFinMs !== undefined) {
        finTimer = setTimeout(() => {
          if (answerAt) return;
          from = performance.now();
          socket.end();
        }, opts.holdThenFinMs);
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Multipart bodies and their mutations.

interface Part {
  headers: string[];
  body: Buffer;
}
const field = (name: string, value: string): Part => ({ headers: [`Content-Disposition: form-data; name="${name}"`], body: Buffer.from(value) });
const filePart = (name: string, filename: string, type: string, body: Buffer): Part => ({
  headers: [`Content-Disposition: form-data; name="${name}"; filename="${filename}"`, `Content-Type: ${type}`],
  body,
});

function serialize(parts: Part[], opts: { boundary?: string; preamble?: Buffer; epilogue?: Buffer } = {}): Buffer {
  const b = opts.boundary ?? B;
  const chunks: Buffer[] = [opts.preamble ?? Buffer.alloc(0)];
  for (const p of parts) chunks.push(Buffer.from(`--${b}\r\n${p.headers.map((h) => `${h}\r\n`).join('')}\r\n`), p.body, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${b}--\r\n`), opts.epilogue ?? Buffer.alloc(0));
  return Buffer.concat(chunks);
}

interface Media {
  video: Buffer;
  jpeg: Buffer;
}

interface FuzzRoute {
  name: string;
  url: string;
  parts: (m: Media) => Part[];
}

const FUZZ_ROUTES: FuzzRoute[] = [
  {
    name: 'POST /api/videos',
    url: '/api/videos',
    parts: (m) => [
      field('title', 'Fuzzed upload'),
      field('description', 'A valid body to mutate'),
      field('category', 'music'),
      filePart('video', 'clip.mp4', 'video/mp4', m.video),
      filePart('thumbnail', 'thumb.jpg', 'image/jpeg', m.jpeg),
    ],
  },
  { name: 'POST /api/studio/profile/avatar', url: '/api/studio/profile/avatar', parts: (m) => [filePart('image', 'me.jpg', 'image/jpeg', m.jpeg)] },
  { name: 'POST /api/studio/profile/cover', url: '/api/studio/profile/cover', parts: (m) => [field('note', 'cover'), filePart('image', 'cover.jpg', 'image/jpeg', m.jpeg)] },
];

const GARBAGE_DISPOSITIONS = (r: Rand): string[] => [
  'Content-Disposition: form-data',
  'Content-Disposition: form-data; name=',
  'Content-Disposition: form-data; name="unterminated',
  'Content-Disposition: attachment; filename="x.bin"',
  "Content-Disposition: form-data; name=\"a\"; filename*=UTF-8''%ZZ%",
  'Content-Disposition: ; ; ;',
  `Content-Disposition: form-data; name="${'n'.repeat(r.range(1000, 20_000))}"`,
  'Content-Disposition form-data name="video"',
  `Content-Disposition: ${r.bytes(r.range(1, 200)).toString('latin1').replace(/[\r\n]/g, ' ')}`,
  'Content-Disposition: form-data; name="__proto__"',
  'Content-Disposition: form-data; name="video"; filename="../../../etc/passwd"',
];

type StructOp = (parts: Part[], r: Rand) => Part[];
type ByteOp = (buf: Buffer, r: Rand) => Buffer;

const positionsOf = (buf: Buffer, needle: string): number[] => {
  const found: number[] = [];
  for (let i = buf.indexOf(needle); i !== -1 && found.length < 10_000; i = buf.indexOf(needle, i + 1)) found.push(i);
  return found;
};
const splice = (buf: Buffer, at: number, remove: number, insert: Buffer = Buffer.alloc(0)) =>
  Buffer.concat([buf.subarray(0, at), insert, buf.subarray(Math.min(buf.length, at + remove))]);

const STRUCT_OPS: ReadonlyArray<readonly [number, string, StructOp]> = [
  [8, 'part without Content-Disposition, 16 KB+', (parts, r) => {
    const size = 16 * 1024 + r.int(240 * 1024);
    const body = r.chance(0.5) ? Buffer.alloc(size, 0x61) : r.bytes(size);
    const out = [...parts];
    out.splice(r.int(out.length + 1), 0, { headers: r.chance(0.5) ? ['Content-Type: application/octet-stream'] : [], body });
    return out;
  }],
  [6, 'Content-Disposition removed', (parts, r) => {
    const i = r.int(parts.length);
    return parts.map((p, j) => (j === i ? { ...p, headers: p.headers.filter((h) => !h.startsWith('Content-Disposition')) } : p));
  }],
  [6, 'garbage Content-Disposition', (parts, r) => {
    const i = r.int(parts.length);
    const cd = r.pick(GARBAGE_DISPOSITIONS(r));
    return parts.map((p, j) => (j === i ? { ...p, headers: [cd, ...p.headers.filter((h) => !h.startsWith('Content-Disposition'))] } : p));
  }],
  [5, 'huge part header line', (parts, r) => {
    const i = r.int(parts.length);
    const line = `X-Pad: ${'p'.repeat(r.range(1024, 300 * 1024))}`;
    return parts.map((p, j) => (j === i ? { ...p, headers: r.chance(0.5) ? [...p.headers, line] : [line, ...p.headers] } : p));
  }],
  [4, 'many parts', (parts, r) => {
    const extra = Array.from({ length: r.range(20, 3000) }, (_, k) => (r.chance(0.8) ? field(`f${k}`, 'x') : filePart(`f${k}`, 'f.bin', 'application/octet-stream', Buffer.alloc(64, k))));
    return r.chance(0.5) ? [...extra, ...parts] : [...parts, ...extra];
  }],
  [3, 'form sent twice', (parts) => [...parts, ...parts]],
  [2, 'parts shuffled', (parts, r) => {
    const out = [...parts];
    for (let i = out.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }],
  [1, 'no parts at all', () => []],
];

const BYTE_OPS: ReadonlyArray<readonly [number, string, ByteOp]> = [
  [10, 'bit flips', (buf, r) => {
    const out = Buffer.from(buf);
    for (let i = 0, n = r.range(1, 32); i < n && out.length; i++) out[r.int(out.length)]! ^= 1 << r.int(8);
    return out;
  }],
  [8, 'random bytes inserted', (buf, r) => {
    let out = buf;
    for (let i = 0, n = r.range(1, 4); i < n; i++) out = splice(out, r.int(out.length + 1), 0, r.bytes(r.range(1, 64)));
    return out;
  }],
  [5, 'range deleted', (buf, r) => splice(buf, r.int(buf.length + 1), r.range(1, 4096))],
  [4, 'range duplicated', (buf, r) => {
    const p = r.int(buf.length + 1);
    return splice(buf, r.int(buf.length + 1), 0, Buffer.from(buf.subarray(p, p + r.range(1, 20_000))));
  }],
  [8, 'truncated', (buf, r) => buf.subarray(0, r.int(buf.length))],
  [6, 'boundary dropped', (buf, r) => {
    const at = positionsOf(buf, `--${B}`);
    return at.length ? splice(buf, r.pick(at), B.length + 4) : buf;
  }],
  [5, 'boundary duplicated', (buf, r) => {
    const at = positionsOf(buf, `--${B}\r\n`);
    return at.length ? splice(buf, r.pick(at), 0, Buffer.from(`--${B}\r\n`.repeat(r.range(1, 3)))) : buf;
  }],
  [6, 'boundary corrupted', (buf, r) => {
    const at = positionsOf(buf, B);
    if (!at.length) return buf;
    const out = Buffer.from(buf);
    out[r.pick(at) + r.int(B.length)] = r.pick([0x21 + r.int(90), 0x00, 0x0d, 0x0a, 0x2d, 0xff]);
    return out;
  }],
  [3, 'closed early', (buf, r) => {
    const at = positionsOf(buf, `--${B}\r\n`);
    return at.length ? splice(buf, r.pick(at), B.length + 4, Buffer.from(`--${B}--\r\n`)) : buf;
  }],
  [3, 'boundary inside data', (buf, r) => splice(buf, r.int(buf.length + 1), 0, Buffer.from(r.pick([`\r\n--${B}`, `\r\n--${B}\r\n`, `--${B}--`, `\r\n--${B.slice(0, 8)}`])))],
  [3, 'CRLF turned to LF', (buf, r) => {
    const at = positionsOf(buf, '\r\n');
    if (!at.length) return buf;
    if (r.chance(0.3)) return Buffer.from(buf.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
    return splice(buf, r.pick(at), 1);
  }],
  [2, 'garbage preamble', (buf, r) => Buffer.concat([r.bytes(r.range(1, 4096)), buf])],
  [2, 'garbage epilogue', (buf, r) => Buffer.concat([buf, r.bytes(r.range(1, 4096))])],
];

interface Op {
  name: string;
  struct: StructOp | null;
  bytes: ByteOp | null;
}
/** Structural operations are applied to the parts first, then byte operations to the serialized body. */
const ALL_OPS: ReadonlyArray<readonly [number, Op]> = [
  ...STRUCT_OPS.map(([w, name, fn]) => [w, { name, struct: fn, bytes: null }] as const),
  ...BYTE_OPS.map(([w, name, fn]) => [w, { name, struct: null, bytes: fn }] as const),
];

const CONTENT_TYPES: ReadonlyArray<readonly [number, string, (r: Rand) => string | null]> = [
  [70, 'right', () => `multipart/form-data; boundary=${B}`],
  [3, 'no boundary', () => 'multipart/form-data'],
  [3, 'empty boundary', () => 'multipart/form-data; boundary='],
  [3, 'quoted boundary', () => `multipart/form-data; boundary="${B}"`],
  [3, 'wrong boundary', () => `multipart/form-data; boundary=${B}x`],
  [2, 'prefix of the boundary', () => `multipart/form-data; boundary=${B.slice(0, 10)}`],
  [2, 'boundary of 300 chars', () => `multipart/form-data; boundary=${'x'.repeat(300)}`],
  [2, 'extra parameters', () => `multipart/form-data; charset=utf-8; boundary=${B}; foo=bar`],
  [2, 'two boundaries', () => `multipart/form-data; boundary=${B}; boundary=other`],
  [2, 'multipart/mixed', () => `multipart/mixed; boundary=${B}`],
  [2, 'upper case', () => `Multipart/Form-Data; BOUNDARY=${B}`],
  [2, 'not multipart', (r) => r.pick(['application/octet-stream', 'text/plain', 'application/json', 'image/png'])],
  [2, 'garbage bytes', (r) => `multipart/form-data; boundary=${r.bytes(r.range(1, 60)).toString('latin1').replace(/[\r\n]/g, '_')}`],
  [2, 'missing', () => null],
];

type Framing = 'exact length' | 'length short' | 'length long' | 'chunked' | 'chunked, bad size' | 'chunked, no end' | 'huge HTTP header' | 'no length';
const FRAMINGS: ReadonlyArray<readonly [number, Framing]> = [
  [75, 'exact length'],
  [6, 'length short'],
  [3, 'length long'],
  [8, 'chunked'],
  [2, 'chunked, bad size'],
  [1, 'chunked, no end'],
  [3, 'huge HTTP header'],
  [2, 'no length'],
];

interface FuzzCase {
  index: number;
  route: FuzzRoute;
  labels: string[];
  contentType: string;
  framing: Framing;
  head: Buffer;
  body: Buffer[];
  holdThenFinMs?: number;
}

function chunked(buf: Buffer, r: Rand, mode: 'good' | 'bad size' | 'no end'): Buffer[] {
  const out: Buffer[] = [];
  const bad = mode === 'bad size' ? r.int(Math.max(1, Math.ceil(buf.length / 8192))) : -1;
  for (let off = 0, k = 0; off < buf.length; k++) {
    const size = Math.min(buf.length - off, r.range(1, 64 * 1024));
    let declared = size.toString(16);
    if (k === bad) declared = r.pick(['zz', '-1', `${(size + 0x1000000).toString(16)}`.slice(0, 1), '0x10', `${declared};${'e'.repeat(5000)}`, `${Math.max(0, size - r.range(1, 8)).toString(16)}`]);
    out.push(Buffer.from(`${declared}\r\n`), buf.subarray(off, off + size), Buffer.from('\r\n'));
    off += size;
  }
  if (mode !== 'no end') out.push(Buffer.from('0\r\n\r\n'));
  return out;
}

function makeCase(index: number, r: Rand, media: Media, port: number, cookie: string): FuzzCase {
  const route = FUZZ_ROUTES[index % FUZZ_ROUTES.length]!;
  const labels: string[] = [];
  let parts = route.parts(media);
  const chosen = Array.from({ length: r.range(1, 3) }, () => r.weighted(ALL_OPS));
  for (const op of chosen) if (op.struct) {
    parts = op.struct(parts, r);
    labels.push(op.name);
  }
  let body = serialize(parts);
  for (const op of chosen) if (op.bytes) {
    body = op.bytes(body, r);
    labels.push(op.name);
  }
  const [ctName, contentType] = (() => {
    const [, name, fn] = r.weighted(CONTENT_TYPES.map((c) => [c[0], c] as const));
    return [name, fn(r)] as const;
  })();
  if (ctName !== 'right') labels.push(`content type: ${ctName}`);
  const framing = r.weighted(FRAMINGS);
  if (framing !== 'exact length') labels.push(framing);

  const lines = [`POST ${route.url} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Origin: http://127.0.0.1:${port}`, `Cookie: ${SESSION_COOKIE}=${cookie}`, `X-Request-Id: abuse-fuzz-${index}`];
  if (contentType !== null) lines.push(`Content-Type: ${contentType}`);
  let chunks: Buffer[] = [body];
  let holdThenFinMs: number | undefined;
  switch (framing) {
    case 'exact length':
    case 'huge HTTP header':
      lines.push(`Content-Length: ${body.length}`);
      if (framing === 'huge HTTP header') lines.push(`X-Pad: ${'h'.repeat(r.range(17 * 1024, 64 * 1024))}`);
      break;
    case 'length short':
      lines.push(`Content-Length: ${Math.max(0, body.length - r.range(1, Math.max(1, Math.min(body.length, 4000))))}`);
      break;
    case 'length long':
      lines.push(`Content-Length: ${body.length + r.range(1, 100_000)}`);
      holdThenFinMs = HOLD_MS;
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      chunks = chunked(body, r, 'good');
      break;
    case 'chunked, bad size':
      lines.push('Transfer-Encoding: chunked');
      chunks = chunked(body, r, 'bad size');
      // A declared size larger than what follows leaves the server waiting for the rest.
      holdThenFinMs = HOLD_MS;
      break;
    case 'chunked, no end':
      lines.push('Transfer-Encoding: chunked');
      chunks = chunked(body, r, 'no end');
      holdThenFinMs = HOLD_MS;
      break;
    case 'no length':
      break;
  }
  lines.push('Connection: close', '', '');
  return { index, route, labels, contentType: contentType ?? '(none)', framing, head: Buffer.from(lines.join('\r\n'), 'latin1'), body: chunks, holdThenFinMs };
}

// ---------------------------------------------------------------------------------------------
// Reproducers.

let reproCount = 0;
const reproIndex: string[] = [];
function saveRepro(name: string, head: Buffer, body: Buffer[], note: string): string | null {
  if (reproCount >= MAX_REPROS) return null;
  reproCount++;
  mkdirSync(REPRO_DIR, { recursive: true });
  const file = path.join(REPRO_DIR, `${name}.http`);
  writeFileSync(file, Buffer.concat([head, ...body]));
  reproIndex.push(`${path.basename(file)}: ${note}`);
  writeFileSync(
    path.join(REPRO_DIR, 'INDEX.txt'),
    `Raw requests (head and body, as sent over one TCP connection) that got a 5xx, no answer, or an answer after more than ${SLOW_MS / 1000} s.\n` +
      `The Cookie header names a session of the run that made them, and Host/Origin its port: replace them, then e.g.\n` +
      `  (cat file.http; sleep 3) | nc 127.0.0.1 PORT\n` +
      `Keep the sending side open until the answer has come: this server drops the answer to a request whose client half-closes first.\n` +
      `(For "hold, then half-close" cases the half-close after ${HOLD_MS} ms is part of the request.)\n\n${reproIndex.join('\n')}\n`,
  );
  return file;
}

// ---------------------------------------------------------------------------------------------
// Test media: a tiny valid MP4, a small JPEG, and the 49 MP PNGs of the flood.

async function tinyVideo(dir: string): Promise<Buffer> {
  const { ffmpeg } = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
  const out = path.join(dir, 'tiny.mp4');
  await runFfmpeg(ffmpeg, [
    '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=10', '-t', '0.5',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out,
  ], 60_000);
  return readFileSync(out);
}

/**
 * A 7000x7000 PNG: a smooth gradient with a share of pixels set to noise, so it compresses to
 * about the size asked for (pure noise would be 140 MB, far over every limit). Returns the first
 * that fits under maxBytes.
 */
async function floodPng(targetBytes: number, maxBytes: number, seed: number): Promise<{ png: Buffer; noise: number }> {
  const W = FLOOD_SIDE;
  const H = FLOOD_SIDE;
  // About 3.2 bytes of PNG per noisy pixel plus a little for the gradient, measured.
  let noise = targetBytes / (W * H * 3.25);
  for (let attempt = 0; attempt < 4; attempt++) {
    const raw = Buffer.allocUnsafe(W * H * 3);
    let s = (seed ^ 0x9e3779b9) >>> 0 || 1;
    const cut = Math.round(noise * 65536);
    for (let y = 0; y < H; y++) {
      const g = (y * 255) / H;
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3;
        s ^= s << 13;
        s >>>= 0;
        s ^= s >>> 17;
        s ^= s << 5;
        s >>>= 0;
        if ((s & 0xffff) < cut) {
          raw[i] = s >>> 24;
          raw[i + 1] = (s >>> 16) & 255;
          raw[i + 2] = (s >>> 8) & 255;
        } else {
          raw[i] = (x * 255) / W;
          raw[i + 1] = g;
          raw[i + 2] = 128;
        }
      }
    }
    const png = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).png({ compressionLevel: 6 }).toBuffer();
    if (png.length <= maxBytes) return { png, noise };
    noise *= (targetBytes / png.length) * 0.97;
  }
  throw new Error(`could not make a ${W}x${H} PNG under ${maxBytes} bytes`);
}

// ---------------------------------------------------------------------------------------------
// Compression bombs.

/** ~10 MB of gzip that expands to 10 GiB: one member of 10 MiB of zeros, 1024 times (RFC 1952 allows many members). */
function gzipBomb(): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(10 * MB), { level: 9 });
  return Buffer.concat(Array.from({ length: 1024 }, () => member));
}

/**
 * ~10 MB of zlib-wrapped deflate (Content-Encoding: deflate) that expands to 10 GiB: 10 MiB of
 * zeros compressed and sync-flushed, so the blocks end on a byte; that block run repeated 1024
 * times, then a final empty block and the Adler-32 of 10 GiB of zeros.
 */
async function deflateBomb(): Promise<Buffer> {
  const d = zlib.createDeflateRaw({ level: 9 });
  const parts: Buffer[] = [];
  d.on('data', (c: Buffer) => parts.push(c));
  d.write(Buffer.alloc(10 * MB));
  await new Promise<void>((resolve) => d.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
  d.destroy();
  const run = Buffer.concat(parts);
  const total = 1024 * 10 * MB;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0); // Adler-32 of n zeros: a = 1, b = n mod 65521
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: 1024 }, () => run), Buffer.from([0x03, 0x00]), adler]);
}

/** br of 10 GiB of zeros (quality 1, streamed: about a second); brotli has no members to repeat, and compresses zeros far better than gzip. */
async function brotliBomb(): Promise<Buffer> {
  const enc = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const parts: Buffer[] = [];
  enc.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((resolve) => enc.on('end', resolve));
  const zeros = Buffer.alloc(16 * MB);
  for (let i = 0; i < (10 * GiB) / zeros.length; i++) if (!enc.write(zeros)) await new Promise((r) => enc.once('drain', r));
  enc.end();
  await ended;
  return Buffer.concat(parts);
}

/** Checks the bombs expand as claimed, on their first 64 MiB (the rest is the same bytes repeated). */
function checkBomb(kind: 'gzip' | 'deflate' | 'br', body: Buffer): void {
  const opts = { maxOutputLength: 64 * MB };
  let out: Buffer;
  try {
    out = kind === 'gzip' ? zlib.gunzipSync(body, opts) : kind === 'deflate' ? zlib.inflateSync(body, opts) : zlib.brotliDecompressSync(body, opts);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw err;
    return; // more than 64 MiB of output: as meant
  }
  throw new Error(`the ${kind} bomb expands to only ${out.length} bytes`);
}

// ---------------------------------------------------------------------------------------------

interface Check {
  name: string;
  figure: string;
  must: string;
  pass: boolean;
  /** Reported, not judged. */
  info?: boolean;
}

interface LogLine {
  reqId?: string;
  msg?: string;
  err?: { message?: string; code?: string; statusCode?: number };
}

class Tally {
  readonly m = new Map<string, number>();
  add(key: string, n = 1) {
    this.m.set(key, (this.m.get(key) ?? 0) + n);
  }
  get(key: string) {
    return this.m.get(key) ?? 0;
  }
}

function statusClass(status: number): string {
  return status === 0 ? 'no answer' : `${Math.floor(status / 100)}xx`;
}

async function main() {
  const checks: Check[] = [];
  const root = await mkdtemp(path.join(os.tmpdir(), 'framemerch-abuse-'));
  const dataDir = path.join(root, 'data');
  const serverTmp = path.join(root, 'server-tmp');
  mkdirSync(dataDir);
  mkdirSync(serverTmp);
  const logFile = path.join(root, 'server.log');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
  const loadAtStart = load();
  console.log(`bench:abuse: seed ${SEED}, ${fmt(FUZZ_REQUESTS)} mutated bodies, ${CONCURRENCY} at a time, server on port ${port}, data in ${dataDir}; load average ${loadAtStart}`);

  // Media and bombs, before the server starts (so their CPU is not counted against it).
  const t = performance.now();
  const video = await tinyVideo(root);
  const jpeg = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 40, g: 90, b: 160 } } }).jpeg({ quality: 80 }).toBuffer();
  const smallPng = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 200, g: 60, b: 60 } } }).png().toBuffer();
  const media: Media = { video, jpeg };
  const bigShot = await floodPng(7.5 * MB, Math.min(MAX_SCREENSHOT_BYTES, UPLOAD_LIMITS.thumbnailBytes) - 64 * 1024, SEED);
  const avatarShot = await floodPng(4.6 * MB, UPLOAD_LIMITS.profileImageBytes - 64 * 1024, SEED + 1);
  for (const s of [bigShot, avatarShot]) {
    const meta = await sharp(s.png, { limitInputPixels: false }).metadata();
    if (meta.width !== FLOOD_SIDE || meta.height !== FLOOD_SIDE) throw new Error('flood PNG has the wrong size');
  }
  const bombs = { gzip: gzipBomb(), deflate: await deflateBomb(), br: await brotliBomb() };
  for (const [k, v] of Object.entries(bombs)) checkBomb(k as keyof typeof bombs, v);
  console.log(
    `media made in ${((performance.now() - t) / 1000).toFixed(1)} s: video ${fmt(video.length)} B, JPEG ${fmt(jpeg.length)} B, ` +
      `flood PNGs ${FLOOD_SIDE}x${FLOOD_SIDE} ${mb(bigShot.png.length)} MB (${(bigShot.noise * 100).toFixed(2)} % noise pixels) and ${mb(avatarShot.png.length)} MB; ` +
      `bombs gzip ${mb(bombs.gzip.length)} MB, deflate ${mb(bombs.deflate.length)} MB, br ${mb(bombs.br.length)} MB, each 10 GiB of zeros`,
  );

  // A signed-in creator, written before the server opens the embedded database (one process at a time).
  const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  await migrate(db.db);
  const user = await createUser(db.db, { email: 'abuse@example.com', displayName: 'Abuse', role: 'creator', emailVerified: true });
  const { token } = await createSession(db.db, user.id, 1, {});
  await db.close();

  const log = openSync(logFile, 'w');
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], {
    cwd: ROOT,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      TMPDIR: serverTmp,
      PORT: String(port),
      PUBLIC_URL: origin,
      WEB_DIST: 'none',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      DATABASE_URL: '',
    },
  });
  closeSync(log);
  const pid = server.pid!;
  let failed = false;
  /** What each fuzz request was, by index, to explain the server's log lines afterwards. */
  const caseNotes = new Map<number, string>();
  /** The fuzz request each client port last carried. */
  const portToCase = new Map<number, number>();
  /** The same cases again, from the seed: the bodies of the indexes asked for. */
  const replay = (indexes: number[]): Map<number, FuzzCase> => {
    const want = new Set(indexes);
    const out = new Map<number, FuzzCase>();
    const r = new Rand(SEED);
    for (let k = 0; k <= Math.max(-1, ...indexes); k++) {
      const c = makeCase(k, r, media, port, token);
      if (want.has(k)) out.set(k, c);
    }
    return out;
  };
  try {
    await waitForHealth(port, server);
    const auth = { cookie: `${SESSION_COOKIE}=${token}`, origin };
    const multipart = (parts: Part[]) => ({ body: serialize(parts), type: `multipart/form-data; boundary=${B}` });

    // The bodies the fuzz mutates are valid: each is accepted as it is.
    const valid: Record<string, number> = {};
    let videoUrl = '';
    for (const route of FUZZ_ROUTES) {
      const { body, type } = multipart(route.parts(media));
      const res = await fetch(`${origin}${route.url}`, { method: 'POST', body: new Uint8Array(body), headers: { ...auth, 'content-type': type } });
      const json = (await res.json()) as { video?: { id: string } };
      valid[route.url] = res.status;
      if (json.video) {
        const info = (await (await fetch(`${origin}/api/video-info?id=${json.video.id}`)).json()) as { video: { video_url: string } };
        videoUrl = info.video.video_url;
      }
    }
    const shotBody = (png: Buffer) => Buffer.from(JSON.stringify({ videoUrl, screenshots: [`data:image/png;base64,${png.toString('base64')}`] }));
    const productRes = await fetch(`${origin}/api/create-product`, { method: 'POST', body: shotBody(smallPng), headers: { ...auth, 'content-type': 'application/json' } });
    valid['/api/create-product'] = productRes.status;
    await productRes.arrayBuffer();
    console.log(`valid bodies: ${Object.entries(valid).map(([u, s]) => `${u} ${s}`).join(', ')}`);
    if (valid['/api/videos'] !== 201 || valid['/api/studio/profile/avatar'] !== 200 || valid['/api/create-product'] !== 200) {
      throw new Error('a valid body was not accepted; the fuzz would not start from valid bodies');
    }

    // ------------------------------------------------------------------ 1. malformed multipart
    console.log(`\n1. malformed multipart: ${fmt(FUZZ_REQUESTS)} bodies over ${FUZZ_ROUTES.map((r) => r.name).join(', ')}`);
    await sleep(1000);
    // The embedded database opens its relation files as it first touches them (more tables and
    // free-space maps as rows arrive): those are counted apart from the fds a request could leak.
    const dbFile = `file ${path.join(dataDir, 'pglite')}`;
    const leakable = (fds: string[]) => fds.filter((k) => !k.startsWith(dbFile));
    const fdsBefore = openFds(pid);

    const rssBeforeFuzz = procStatus(pid);
    const tmpRoot = path.join(dataDir, 'tmp');
    // The upload code's temporary folder, and the server's TMPDIR (less tsx's compile cache, which lives there too).
    const tempFiles = () => countFiles(tmpRoot) + countFiles(serverTmp, /^tsx-/);
    const tmpBefore = tempFiles();
    const rand = new Rand(SEED);
    const statuses = new Tally();
    const classes = new Tally();
    const byRoute = new Map<string, Tally>();
    const byLabel = new Map<string, Tally>();
    const answerMs: number[] = [];
    let sent = 0;
    let slow = 0;
    let timedOut = 0;
    let resetBefore = 0;
    let resetAfter = 0;
    let closedSilently = 0;
    let lingering = 0;
    let fiveXX = 0;
    const faults: string[] = [];
    let nextIndex = 0;
    const fuzzStart = performance.now();
    const cpuBeforeFuzz = cpuSeconds(pid);
    const lag = lagMonitor();
    // ABUSE_DUMP=file: one JSON line per request, for a closer look.
    const dump = process.env.ABUSE_DUMP ? openSync(process.env.ABUSE_DUMP, 'w') : null;
    let lastReport = fuzzStart;
    const worker = async () => {
      for (;;) {
        const i = nextIndex++;
        if (i >= FUZZ_REQUESTS) return;
        const c = makeCase(i, rand, media, port, token);
        caseNotes.set(i, `${c.route.name}: ${c.labels.join(', ')}; Content-Type ${c.contentType}${c.holdThenFinMs !== undefined ? '; hold, then half-close' : ''}`);
        const res = await exchange(port, c.head, c.body, {
          ...(c.holdThenFinMs !== undefined ? { holdThenFinMs: c.holdThenFinMs } : {}),
          onConnect: (p) => portToCase.set(p, i),
        });
        sent++;
        statuses.add(String(res.status || 'none'));
        const cls = statusClass(res.status);
        classes.add(cls);
        if (!byRoute.has(c.route.name)) byRoute.set(c.route.name, new Tally());
        byRoute.get(c.route.name)!.add(cls);
        for (const l of new Set(c.labels)) {
          if (!byLabel.has(l)) byLabel.set(l, new Tally());
          const tl = byLabel.get(l)!;
          tl.add('n');
          tl.add(cls);
          if (res.ms > SLOW_MS || res.timedOut) tl.add('slow');
        }
        answerMs.push(res.ms);
        if (dump !== null) writeSync(dump, `${JSON.stringify({ i, route: c.route.url, labels: c.labels, ...res, ms: Math.round(res.ms), closeMs: Math.round(res.closeMs) })}\n`);
        if (res.reset) {
          if (res.status) resetAfter++;
          else resetBefore++;
        }
        if (!res.status && !res.reset && !res.timedOut) closedSilently++;
        if (res.status && res.closeMs - res.ms > SLOW_MS) lingering++;
        const isSlow = res.ms > SLOW_MS || res.timedOut;
        if (isSlow) slow++;
        if (res.timedOut) timedOut++;
        if (res.status >= 500) fiveXX++;
        if (res.status >= 500 || isSlow) {
          const note = `${c.route.name}: ${res.status || 'no answer'} after ${res.ms.toFixed(0)} ms${res.timedOut ? ' (deadline)' : ''}; ${c.labels.join(', ')}; Content-Type ${c.contentType}${c.holdThenFinMs !== undefined ? '; hold, then half-close' : ''}`;
          const file = saveRepro(`fuzz-${i}`, c.head, c.body, note);
          faults.push(`${note}${file ? ` -> ${file}` : ''}`);
        }
        if (sent % 3000 === 0 || performance.now() - lastReport > 30_000) {
          lastReport = performance.now();
          const s = (lastReport - fuzzStart) / 1000;
          console.log(`  ${fmt(sent)} sent in ${s.toFixed(0)} s (${(sent / s).toFixed(0)}/s); 5xx ${fiveXX}, over 5 s ${slow}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const fuzzSeconds = (performance.now() - fuzzStart) / 1000;
    const fuzzCpu = cpuSeconds(pid) - cpuBeforeFuzz;
    const fuzzLag = lag.take();
    lag.stop();
    if (dump !== null) closeSync(dump);
    // Let the server finish what it cleans up after answering (temp files, closing sockets).
    let fdsAfter = openFds(pid);
    let tmpAfter = tempFiles();
    for (let waited = 0; waited < 10_000 && (leakable(fdsAfter).length > leakable(fdsBefore).length + FD_ALLOWANCE || tmpAfter > tmpBefore); waited += 500) {
      await sleep(500);
      fdsAfter = openFds(pid);
      tmpAfter = tempFiles();
    }
    const rssAfterFuzz = procStatus(pid);
    const fdGrowth = leakable(fdsAfter).length - leakable(fdsBefore).length;
    const leftConnections = connectionsOn(pid, port).map((c) => ({ ...c, index: portToCase.get(c.peer) }));

    console.log(
      `  sent ${fmt(sent)} in ${fuzzSeconds.toFixed(1)} s (${(sent / fuzzSeconds).toFixed(0)} requests/s); server CPU ${fuzzCpu.toFixed(1)} s (with its ffprobe children), ` +
        `this client's worst timer delay ${fuzzLag.toFixed(0)} ms`,
    );
    console.log(`  by class: ${['2xx', '3xx', '4xx', '5xx', 'no answer'].map((k) => `${k} ${fmt(classes.get(k))}`).join(', ')}`);
    console.log(`  by status: ${[...statuses.m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
    for (const [name, tl] of byRoute) console.log(`  ${name.padEnd(32)} ${['2xx', '4xx', '5xx', 'no answer'].map((k) => `${k} ${fmt(tl.get(k))}`).join(', ')}`);
    console.log(`  answer time p50 ${percentile(answerMs, 50).toFixed(0)} ms, p99 ${percentile(answerMs, 99).toFixed(0)} ms, max ${Math.max(...answerMs).toFixed(0)} ms; over 5 s ${slow} (deadline hit ${timedOut})`);
    console.log(`  connections: reset before an answer ${resetBefore}, reset after the answer ${resetAfter}, closed with no answer ${closedSilently}, left open over 5 s after answering ${lingering}`);
    console.log(
      `  server fds ${fdsBefore.length} -> ${fdsAfter.length}: the database's own files ${fdsBefore.length - leakable(fdsBefore).length} -> ${fdsAfter.length - leakable(fdsAfter).length}, ` +
        `all others (sockets, pipes, temp files...) ${leakable(fdsBefore).length} -> ${leakable(fdsAfter).length}`,
    );
    console.log(`  server RSS ${mb(rssBeforeFuzz)} -> ${mb(rssAfterFuzz)} MB; temp files ${tmpBefore} -> ${tmpAfter} (${tmpRoot}, and TMPDIR ${serverTmp})`);
    if (fdGrowth > 0) {
      const before = fdKinds(leakable(fdsBefore));
      const grew = [...fdKinds(leakable(fdsAfter))].filter(([k, v]) => v > (before.get(k) ?? 0)).map(([k, v]) => `${k} +${v - (before.get(k) ?? 0)}`);
      console.log(`  fds that grew: ${grew.join(', ')}`);
    }
    console.log(`  connections the server still holds after the last answer: ${leftConnections.length}`);
    for (const c of leftConnections) {
      const note = c.index === undefined ? 'not a fuzz connection' : `fuzz request ${c.index}: ${caseNotes.get(c.index) ?? ''}`;
      console.log(`    ${c.state} from port ${c.peer}: ${note}`);
    }
    console.log('  by mutation (a body has 1 to 3):');
    for (const [label, tl] of [...byLabel].sort((a, b) => b[1].get('n') - a[1].get('n'))) {
      console.log(`    ${label.padEnd(42)} ${fmt(tl.get('n')).padStart(6)}  2xx ${fmt(tl.get('2xx')).padStart(5)}  4xx ${fmt(tl.get('4xx')).padStart(6)}  5xx ${tl.get('5xx')}  no answer ${fmt(tl.get('no answer')).padStart(4)}  slow ${tl.get('slow')}`);
    }
    for (const f of faults.slice(0, 20)) console.log(`  FAULT ${f}`);

    checks.push({ name: 'multipart: 5xx', figure: `${fiveXX} of ${fmt(sent)}`, must: '0', pass: fiveXX === 0 });
    checks.push({ name: 'multipart: answers over 5 s', figure: `${slow} (p99 ${percentile(answerMs, 99).toFixed(0)} ms, max ${Math.max(...answerMs).toFixed(0)} ms)`, must: '0', pass: slow === 0 });
    checks.push({
      name: 'multipart: server fd growth',
      figure: `${leakable(fdsBefore).length} -> ${leakable(fdsAfter).length} (${fdGrowth >= 0 ? '+' : ''}${fdGrowth}; database files apart)`,
      must: `<= ${FD_ALLOWANCE}`,
      pass: fdGrowth <= FD_ALLOWANCE,
    });
    checks.push({ name: 'multipart: temp files left', figure: `${tmpBefore} -> ${tmpAfter}`, must: 'no more than before', pass: tmpAfter <= tmpBefore });

    // ------------------------------------------------------------------ 2. image flood
    console.log(`\n2. image flood: ${FLOOD} uploads at once of a ${FLOOD_SIDE}x${FLOOD_SIDE} PNG to each image route, GET /api/health every 50 ms`);
    const productBody = shotBody(bigShot.png);
    const avatarBody = serialize([filePart('image', 'huge.png', 'image/png', avatarShot.png)]);
    const thumbBody = serialize([
      field('title', 'Flood'),
      field('description', 'A 49 MP thumbnail'),
      field('category', 'music'),
      filePart('video', 'clip.mp4', 'video/mp4', video),
      filePart('thumbnail', 'huge.png', 'image/png', bigShot.png),
    ]);
    const floodHead = (url: string, type: string, length: number) =>
      Buffer.from(
        `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nCookie: ${auth.cookie}\r\nX-Request-Id: abuse-flood${url.replace(/\W+/g, '-')}\r\n` +
          `Content-Type: ${type}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
      );
    const floods = [
      { name: 'POST /api/create-product (data URL)', head: floodHead('/api/create-product', 'application/json', productBody.length), body: productBody, png: bigShot.png.length },
      { name: 'POST /api/studio/profile/avatar', head: floodHead('/api/studio/profile/avatar', `multipart/form-data; boundary=${B}`, avatarBody.length), body: avatarBody, png: avatarShot.png.length },
      { name: 'POST /api/videos (thumbnail)', head: floodHead('/api/videos', `multipart/form-data; boundary=${B}`, thumbBody.length), body: thumbBody, png: bigShot.png.length },
    ];

    // Health probes: one every 50 ms, each counted as answered when a 200 comes within 1 s (and
    // against the phase it was sent in).
    const health = { ok: 0, failed: 0, ms: [] as number[], pending: new Set<Promise<void>>(), phase: 'idle', byPhase: new Map<string, { ok: number; failed: number; ms: number[] }>() };
    const probe = setInterval(() => {
      const t0 = performance.now();
      const phase = health.phase;
      if (!health.byPhase.has(phase)) health.byPhase.set(phase, { ok: 0, failed: 0, ms: [] });
      const tally = health.byPhase.get(phase)!;
      const p = fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(1000) })
        .then(async (r) => {
          await r.arrayBuffer();
          if (r.status === 200) {
            health.ok++;
            tally.ok++;
            health.ms.push(performance.now() - t0);
            tally.ms.push(performance.now() - t0);
          } else {
            health.failed++;
            tally.failed++;
          }
        })
        .catch(() => {
          health.failed++;
          tally.failed++;
        })
        .finally(() => health.pending.delete(p));
      health.pending.add(p);
    }, 50);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, procStatus(pid))), 20);
    await sleep(1000);
    const rssBeforeFlood = procStatus(pid);
    peak = rssBeforeFlood;
    const floodMs: number[] = [];
    const floodStatuses = new Tally();
    let floodFailures = 0;
    let worstPhaseGrowth = 0;
    for (const f of floods) {
      const phaseBefore = procStatus(pid);
      const phasePeakStart = peak;
      peak = phaseBefore;
      health.phase = f.name;
      const cpu0 = cpuSeconds(pid);
      const t0 = performance.now();
      const results = await Promise.all(Array.from({ length: FLOOD }, () => exchange(port, f.head, [f.body])));
      const wall = performance.now() - t0;
      const cpu = cpuSeconds(pid) - cpu0;
      const ms = results.map((r) => r.ms);
      floodMs.push(...ms);
      const st = new Tally();
      for (const r of results) {
        st.add(String(r.status || 'none'));
        floodStatuses.add(String(r.status || 'none'));
        if (r.status < 400 || r.status >= 500) floodFailures++;
        if (r.status >= 500 || r.status === 0) saveRepro(`flood-${f.head.toString().split(' ')[1]!.replace(/\W+/g, '_')}`, f.head, [f.body], `${f.name}: ${r.status || 'no answer'} after ${r.ms.toFixed(0)} ms`);
      }
      await sleep(300);
      health.phase = 'between floods';
      const phasePeak = peak;
      worstPhaseGrowth = Math.max(worstPhaseGrowth, phasePeak - phaseBefore);
      peak = Math.max(phasePeak, phasePeakStart);
      console.log(
        `  ${f.name.padEnd(36)} body ${mb(f.body.length)} MB (PNG ${mb(f.png)} MB): ${[...st.m].map(([k, v]) => `${k} x${v}`).join(', ')}; ` +
          `refused p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms, all in ${wall.toFixed(0)} ms (server CPU ${cpu.toFixed(1)} s with children); RSS ${mb(phaseBefore)} -> peak ${mb(phasePeak)} MB`,
      );
      const hp = health.byPhase.get(f.name);
      if (hp) console.log(`    health probes during it: ${hp.ok}/${hp.ok + hp.failed} within 1 s, p50 ${percentile(hp.ms, 50).toFixed(0)} ms, max ${Math.max(0, ...hp.ms).toFixed(0)} ms`);
      checks.push({
        name: `flood: p99 to refuse, ${f.name.split(' ')[1]}`,
        figure: `p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms`,
        must: '< 1000 ms',
        pass: percentile(ms, 99) < 1000,
      });
    }
    await sleep(500);
    clearInterval(probe);
    await Promise.all([...health.pending]);
    clearInterval(sampler);
    const floodGrowth = peak - rssBeforeFlood;
    const probes = health.ok + health.failed;
    const healthRate = probes ? health.ok / probes : 0;
    console.log(`  statuses ${[...floodStatuses.m].map(([k, v]) => `${k} x${v}`).join(', ')}; time to refuse over all ${floodMs.length}: p50 ${percentile(floodMs, 50).toFixed(0)} ms, p99 ${percentile(floodMs, 99).toFixed(0)} ms`);
    console.log(`  server RSS ${mb(rssBeforeFlood)} MB before, peak ${mb(peak)} MB: +${mb(floodGrowth)} MB (largest within one route's flood +${mb(worstPhaseGrowth)} MB)`);
    console.log(`  health probes ${health.ok}/${probes} answered 200 within 1 s (${(healthRate * 100).toFixed(1)} %), p50 ${percentile(health.ms, 50).toFixed(0)} ms, p99 ${percentile(health.ms, 99).toFixed(0)} ms, max ${Math.max(...health.ms).toFixed(0)} ms`);
    checks.push({ name: 'flood: every upload refused (4xx)', figure: [...floodStatuses.m].map(([k, v]) => `${k} x${v}`).join(', '), must: `${FLOOD * floods.length} x 4xx`, pass: floodFailures === 0 });
    checks.push({ name: 'flood: server RSS growth', figure: `+${mb(floodGrowth)} MB (${mb(rssBeforeFlood)} -> ${mb(peak)})`, must: `<= ${RSS_LIMIT_MB} MB`, pass: floodGrowth <= RSS_LIMIT_MB * MB });
    checks.push({ name: 'flood: health probes answered', figure: `${(healthRate * 100).toFixed(1)} % of ${probes} (p99 ${percentile(health.ms, 99).toFixed(0)} ms)`, must: '>= 99 %', pass: healthRate >= 0.99 });

    // ------------------------------------------------------------------ 3. compression bombs
    console.log('\n3. compression bombs: 10 GiB of zeros each, sent with Content-Encoding');
    const bombCases = [
      { enc: 'gzip', body: bombs.gzip, url: '/api/create-product', type: 'application/json' },
      { enc: 'gzip', body: bombs.gzip, url: '/api/videos', type: `multipart/form-data; boundary=${B}` },
      { enc: 'deflate', body: bombs.deflate, url: '/api/create-product', type: 'application/json' },
      { enc: 'deflate', body: bombs.deflate, url: '/api/videos', type: `multipart/form-data; boundary=${B}` },
      { enc: 'br', body: bombs.br, url: '/api/create-product', type: 'application/json' },
      { enc: 'br', body: bombs.br, url: '/api/studio/profile/avatar', type: `multipart/form-data; boundary=${B}` },
      { enc: 'gzip', body: bombs.gzip, url: '/api/videos', type: `multipart/form-data; boundary=${B}`, chunkedBody: true },
    ];
    let bombsOk = true;
    const bombRows: string[] = [];
    const rssBeforeBombs = procStatus(pid);
    for (const b of bombCases) {
      const before = procStatus(pid);
      let bombPeak = before;
      const s = setInterval(() => (bombPeak = Math.max(bombPeak, procStatus(pid))), 20);
      const framing = b.chunkedBody ? 'Transfer-Encoding: chunked' : `Content-Length: ${b.body.length}`;
      const head = Buffer.from(
        `POST ${b.url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nCookie: ${auth.cookie}\r\nX-Request-Id: abuse-bomb-${b.enc}${b.url.replace(/\W+/g, '-')}\r\n` +
          `Content-Type: ${b.type}\r\nContent-Encoding: ${b.enc}\r\n${framing}\r\nConnection: close\r\n\r\n`,
      );
      const body = b.chunkedBody ? [Buffer.from(`${b.body.length.toString(16)}\r\n`), b.body, Buffer.from('\r\n0\r\n\r\n')] : [b.body];
      const t0 = performance.now();
      // The head, then the body 100 ms later: a server that answers from the headers alone has
      // answered by then, and the answer is read before the unread body could reset the connection.
      const res = await exchange(port, head, body, { pauseAfterHeadMs: 100 });
      const ms = performance.now() - t0;
      await sleep(300);
      clearInterval(s);
      const after = procStatus(pid);
      const growth = Math.max(bombPeak, after) - before;
      const ok = res.status >= 400 && res.status < 500 && res.ms < SLOW_MS && growth <= BOMB_RSS_LIMIT_MB * MB;
      if (!ok) {
        bombsOk = false;
        saveRepro(`bomb-${b.enc}${b.url.replace(/\W+/g, '_')}`, head, body, `${b.enc} bomb to ${b.url}: ${res.status || 'no answer'} after ${ms.toFixed(0)} ms, RSS +${mb(growth)} MB`);
      }
      const row = `${`${b.enc}${b.chunkedBody ? ' (chunked)' : ''} ${mb(b.body.length)} MB -> ${b.url}`.padEnd(44)} ${res.status || 'no answer'} in ${res.ms.toFixed(0)} ms; client got ${mb(res.sentBytes)} of ${mb(b.body.length)} MB into the socket; RSS ${mb(before)} -> ${mb(after)} MB (peak +${mb(growth)})`;
      bombRows.push(row);
      console.log(`  ${row}`);
    }
    const rssAfterBombs = procStatus(pid);
    checks.push({ name: 'bombs: refused unread', figure: `${bombRows.length} sent, RSS ${mb(rssBeforeBombs)} -> ${mb(rssAfterBombs)} MB`, must: `4xx within 5 s, RSS +<= ${BOMB_RSS_LIMIT_MB} MB`, pass: bombsOk });

    // Still serving, and nothing went to the error log.
    const healthy = (await fetch(`${origin}/api/health`)).status === 200;
    checks.push({ name: 'server alive and healthy at the end', figure: healthy ? 'yes' : 'no', must: 'yes', pass: healthy && server.exitCode === null });
  } catch (err) {
    failed = true;
    console.error(err);
  } finally {
    const open = server.exitCode === null ? connectionsOn(pid, port) : [];
    const stopAt = performance.now();
    server.kill('SIGTERM');
    await exited(server);
    const stopMs = performance.now() - stopAt;
    console.log(`\nserver stopped ${stopMs.toFixed(0)} ms after SIGTERM; it held ${open.length} open connection(s) then (kept-alive ones are closed at once)`);
    checks.push({ name: 'graceful stop after SIGTERM', figure: `${(stopMs / 1000).toFixed(1)} s`, must: '-', pass: true, info: true });
  }
  // The server's error log (level 50 and up), each line matched to the request that caused it by its X-Request-Id.
  const errorLines = readFileSync(logFile, 'utf8').split('\n').filter((l) => /"level":(50|60)/.test(l));
  const logged = errorLines.map((l) => {
    try {
      return JSON.parse(l) as LogLine;
    } catch {
      return { msg: l.slice(0, 200) } as LogLine;
    }
  });
  const isAbort = (e: LogLine) => e.err?.message === 'aborted' && e.err.code === 'ECONNRESET';
  const aborts = logged.filter(isAbort);
  const others = logged.filter((e) => !isAbort(e));
  const fuzzIndex = (e: LogLine) => {
    const m = /^abuse-fuzz-(\d+)$/.exec(e.reqId ?? '');
    return m ? Number(m[1]) : null;
  };
  if (errorLines.length) {
    mkdirSync(REPRO_DIR, { recursive: true });
    writeFileSync(path.join(REPRO_DIR, 'server-errors.log'), `${errorLines.join('\n')}\n`);
    console.log(`\nserver error log: ${errorLines.length} lines (all in ${path.join(REPRO_DIR, 'server-errors.log')})`);
  }
  if (aborts.length) {
    const byKind = new Tally();
    for (const e of aborts) {
      const i = fuzzIndex(e);
      const note = i === null ? (e.reqId ?? 'no request id') : (caseNotes.get(i) ?? '');
      const kind = i === null ? note.replace(/^abuse-/, '') : (['length long', 'chunked, no end', 'chunked, bad size'].find((k) => note.includes(k)) ?? 'other framing');
      byKind.add(kind);
    }
    console.log(`  client disconnects logged as "request failed" with a 500 (err "aborted", ECONNRESET): ${aborts.length}; by request: ${[...byKind.m].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  const otherByMessage = new Map<string, LogLine[]>();
  for (const e of others) {
    const key = `${e.msg ?? ''}: ${(e.err?.message ?? '').split('\n')[0]!.slice(0, 160)}`;
    otherByMessage.set(key, [...(otherByMessage.get(key) ?? []), e]);
  }
  for (const [key, list] of otherByMessage) {
    const ids = list.map((e) => e.reqId ?? '?');
    console.log(`  ${list.length} x ${key}; requests ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''}`);
  }
  // Reproducers for the log lines of fuzz requests: every other error, and a few of the disconnects.
  const wanted = [...new Set([...others.map(fuzzIndex), ...aborts.map(fuzzIndex).slice(0, 3)].filter((i): i is number => i !== null))];
  if (wanted.length) {
    for (const [i, c] of replay(wanted)) {
      if (existsSync(path.join(REPRO_DIR, `fuzz-${i}.http`))) continue;
      const line = logged.find((e) => fuzzIndex(e) === i);
      saveRepro(`fuzz-${i}`, c.head, c.body, `logged "${line?.msg ?? ''}: ${(line?.err?.message ?? '').slice(0, 120)}"; ${caseNotes.get(i) ?? ''}`);
    }
  }
  checks.push({ name: 'server log: client disconnects as errors', figure: String(aborts.length), must: '-', pass: true, info: true });
  checks.push({ name: 'server log: other errors', figure: String(others.length), must: '-', pass: true, info: true });
  await rm(root, { recursive: true, force: true });

  const seconds = (performance.now() - started) / 1000;
  console.log(`\nSummary (seed ${SEED}, ${fmt(FUZZ_REQUESTS)} mutated bodies, run ${seconds.toFixed(0)} s, ${os.availableParallelism()} cores, load average ${loadAtStart} at the start, ${load()} at the end)`);
  const w1 = Math.max(...checks.map((c) => c.name.length));
  const w2 = Math.max(...checks.map((c) => c.figure.length));
  const w3 = Math.max(...checks.map((c) => c.must.length));
  console.log(`  ${'check'.padEnd(w1)}  ${'measured'.padEnd(w2)}  ${'must'.padEnd(w3)}  result`);
  for (const c of checks) console.log(`  ${c.name.padEnd(w1)}  ${c.figure.padEnd(w2)}  ${c.must.padEnd(w3)}  ${c.info ? 'info' : c.pass ? 'PASS' : 'FAIL'}`);
  if (reproCount) console.log(`  ${reproCount} reproducer(s) in ${REPRO_DIR} (see INDEX.txt)`);
  const allPass = !failed && checks.every((c) => c.pass);
  console.log(allPass ? 'PASS: every must met' : 'FAIL: a must was not met');
  process.exit(allPass ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
