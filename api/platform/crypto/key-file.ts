/**
 * The payout keys when PAYOUT_ENCRYPTION_KEYS is not set: a key file in the data directory,
 * `$DATA_DIR/keys/payout-keys.json` (folder 0700, file 0600), made on the first start with one
 * random key and read on every later one. A file that others may read, or that does not hold a
 * valid key ring, stops the start. Several processes need the same keys, so production (and any
 * set-up with DATABASE_URL and more than one machine) sets PAYOUT_ENCRYPTION_KEYS instead.
 *
 *   { "version": 1, "current": "k2", "keys": { "k2": "<base64>", "k1": "<base64>" } }
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { decodeKey, generateKey, keyProblem, SealedValues, type KeyRing } from './sealed-values.ts';

const FILE_VERSION = 1;
const FIRST_KEY_ID = 'k1';
/** Checking modes means nothing on Windows, whose files carry no Unix modes. */
const CHECK_MODES = process.platform !== 'win32';

/** A key file that cannot be used: too open, or not a key ring. */
export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

export function payoutKeyFile(dataDir: string): string {
  return path.join(dataDir, 'keys', 'payout-keys.json');
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

function serialise(ring: KeyRing): string {
  const keys: Record<string, string> = {};
  for (const [id, key] of ring.keys) keys[id] = key.toString('base64');
  return `${JSON.stringify({ version: FILE_VERSION, current: ring.current, keys }, null, 2)}\n`;
}

function deserialise(file: string, text: string): KeyRing {
  const bad = (why: string) => new KeyFileError(`Payout key file ${file} is malformed: ${why}. Restore it from a backup; without its keys the sealed bank details cannot be read.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (typeof data !== 'object' || data === null) throw bad('not a JSON object');
  const { version, current, keys } = data as { version?: unknown; current?: unknown; keys?: unknown };
  if (version !== FILE_VERSION) throw bad(`"version" must be ${FILE_VERSION}`);
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) throw bad('"keys" must map key ids to base64 keys');
  const ring = new Map<string, Buffer>();
  for (const [id, encoded] of Object.entries(keys)) {
    const key = typeof encoded === 'string' ? decodeKey(encoded) : null;
    if (!key) throw bad(`key ${id} is not base64`);
    const problem = keyProblem(id, key);
    if (problem) throw bad(problem);
    ring.set(id, key);
  }
  if (typeof current !== 'string' || !ring.has(current)) throw bad('"current" must name one of its keys');
  return { current, keys: ring };
}

async function syncDir(dir: string): Promise<void> {
  if (!CHECK_MODES) return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes the ring to a new private file beside `file` and returns its path. */
async function writeTemp(file: string, ring: KeyRing): Promise<string> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    if (CHECK_MODES) await handle.chmod(0o600);
    await handle.writeFile(serialise(ring), 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw err;
  }
  await handle.close();
  return temp;
}

/** The key folder, made 0700 when missing; one that others may write to is refused. */
async function keyDir(file: string): Promise<string> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if (CHECK_MODES && (info.mode & 0o022) !== 0) {
    throw new KeyFileError(`The payout key folder ${dir} has mode ${octal(info.mode)}; others can replace the keys in it. Run: chmod 700 ${dir}`);
  }
  return dir;
}

/** Reads the key file; null when there is none. Refuses a file whose mode is looser than 0600. */
export async function readKeyFile(file: string): Promise<KeyRing | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (CHECK_MODES ? constants.O_NOFOLLOW : 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new KeyFileError(`Payout key file ${file} is a symbolic link; it must be a regular file with mode 0600.`);
    throw err;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new KeyFileError(`Payout key file ${file} is not a regular file.`);
    if (CHECK_MODES && (info.mode & 0o077) !== 0) {
      throw new KeyFileError(
        `Payout key file ${file} has mode ${octal(info.mode)}; it holds the keys to the bank details and must be 0600 (its owner only). Run: chmod 600 ${file}`,
      );
    }
    return deserialise(file, await handle.readFile('utf8'));
  } finally {
    await handle.close();
  }
}

/**
 * The key file's ring, making the file with one new random key when there is none. Made
 * atomically: written whole to a private temporary file, then linked into place, so a reader
 * never sees half a file, and of two processes starting at once the first link wins and both use
 * its key.
 */
export async function loadOrCreateKeyFile(file: string): Promise<KeyRing> {
  const existing = await readKeyFile(file);
  if (existing) return existing;
  const dir = await keyDir(file);
  const ring: KeyRing = { current: FIRST_KEY_ID, keys: new Map([[FIRST_KEY_ID, generateKey()]]) };
  const temp = await writeTemp(file, ring);
  try {
    await link(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temp).catch(() => {});
  }
  await syncDir(dir);
  const made = await readKeyFile(file);
  if (!made) throw new KeyFileError(`Payout key file ${file} vanished as it was made.`);
  return made;
}

/** Replaces the key file with this ring, atomically (a new private file renamed over the old). */
export async function writeKeyFile(file: string, ring: KeyRing): Promise<void> {
  new SealedValues(ring); // refuses a ring that could not be used, before anything is written
  const dir = await keyDir(file);
  const temp = await writeTemp(file, ring);
  try {
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
  await syncDir(dir);
}

/** Where the keys come from: PAYOUT_ENCRYPTION_KEYS when set, otherwise the key file in the data directory. */
export interface PayoutKeySource {
  payoutKeys: KeyRing | null;
  dataDir: string;
}

export async function loadPayoutKeys(source: PayoutKeySource): Promise<KeyRing> {
  return source.payoutKeys ?? loadOrCreateKeyFile(payoutKeyFile(source.dataDir));
}

/** The app's sealed values, from the configured keys (see loadPayoutKeys). */
export async function openSealedValues(source: PayoutKeySource): Promise<SealedValues> {
  return new SealedValues(await loadPayoutKeys(source));
}
