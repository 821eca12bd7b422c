import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyFileError, loadOrCreateKeyFile, openSealedValues, payoutKeyFile, readKeyFile, writeKeyFile } from './key-file.ts';
import { keyIdOf } from './sealed-values.ts';

const mode = async (p: string) => (await stat(p)).mode & 0o777;

let dataDir: string;
let file: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-keys-'));
  file = payoutKeyFile(dataDir);
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(KeyFileError);
  return (err as KeyFileError).message;
}

describe.skipIf(process.platform === 'win32')('the payout key file', () => {
  it('is made on the first start: one random 32-byte key, file 0600 in a 0700 folder', async () => {
    expect(file).toBe(path.join(dataDir, 'keys', 'payout-keys.json'));
    const ring = await loadOrCreateKeyFile(file);
    expect(ring.current).toBe('k1');
    expect([...ring.keys.keys()]).toEqual(['k1']);
    expect(ring.keys.get('k1')).toHaveLength(32);
    expect(await mode(path.join(dataDir, 'keys'))).toBe(0o700);
    expect(await mode(file)).toBe(0o600);
    const json = JSON.parse(await readFile(file, 'utf8'));
    expect(json).toEqual({ version: 1, current: 'k1', keys: { k1: ring.keys.get('k1')!.toString('base64') } });
    // Nothing else is left in the folder (the temporary file is gone).
    expect(await readdir(path.join(dataDir, 'keys'))).toEqual(['payout-keys.json']);
  });

  it('is read again on a restart: the same key, the file unchanged', async () => {
    const first = await openSealedValues({ payoutKeys: null, dataDir });
    const sealed = first.seal('000123456789', 'user-1');
    const before = await readFile(file, 'utf8');
    const again = await openSealedValues({ payoutKeys: null, dataDir });
    expect(again.open(sealed, 'user-1')).toBe('000123456789');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await mode(file)).toBe(0o600);
  });

  it('gives processes starting at once the same key', async () => {
    const rings = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateKeyFile(file)));
    const keys = new Set(rings.map((r) => r.keys.get('k1')!.toString('hex')));
    expect(keys.size).toBe(1);
    expect(await readdir(path.join(dataDir, 'keys'))).toEqual(['payout-keys.json']);
  });

  it('is refused when others may read it (0644, 0640, 0604), with the chmod that fixes it', async () => {
    await loadOrCreateKeyFile(file);
    for (const loose of [0o644, 0o640, 0o604]) {
      await chmod(file, loose);
      const message = await refusal(loadOrCreateKeyFile(file));
      expect(message).toContain(`has mode 0${loose.toString(8)}`);
      expect(message).toContain(`chmod 600 ${file}`);
    }
    await chmod(file, 0o400);
    expect((await loadOrCreateKeyFile(file)).current).toBe('k1');
  });

  it('is refused when malformed, and never replaced by a new key', async () => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const cases: [string, RegExp][] = [
      ['not json', /not JSON/],
      ['[]', /"version" must be 1/],
      [JSON.stringify({ version: 2, current: 'k1', keys: {} }), /"version" must be 1/],
      [JSON.stringify({ version: 1, current: 'k2', keys: { k1: randomBytes(32).toString('base64') } }), /"current" must name one of its keys/],
      [JSON.stringify({ version: 1, current: 'k1', keys: { k1: randomBytes(16).toString('base64') } }), /key k1 must be 32 bytes/],
      [JSON.stringify({ version: 1, current: 'k1', keys: { k1: 42 } }), /key k1 is not base64/],
      ['', /not JSON/],
    ];
    for (const [text, why] of cases) {
      await writeFile(file, text, { mode: 0o600 });
      const message = await refusal(loadOrCreateKeyFile(file));
      expect(message).toMatch(/is malformed/);
      expect(message).toMatch(why);
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it('is refused when it is a symbolic link, or its folder is writable by others', async () => {
    const elsewhere = path.join(dataDir, 'elsewhere.json');
    await writeFile(elsewhere, JSON.stringify({ version: 1, current: 'k1', keys: { k1: randomBytes(32).toString('base64') } }), { mode: 0o600 });
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await symlink(elsewhere, file);
    expect(await refusal(loadOrCreateKeyFile(file))).toMatch(/symbolic link/);
    await rm(file);
    await chmod(path.dirname(file), 0o777);
    expect(await refusal(loadOrCreateKeyFile(file))).toMatch(/folder .* has mode 0777.*chmod 700/);
  });

  it('is replaced whole by writeKeyFile, still 0600', async () => {
    const ring = await loadOrCreateKeyFile(file);
    const k2 = randomBytes(32);
    await writeKeyFile(file, { current: 'k2', keys: new Map([['k2', k2], ...ring.keys]) });
    expect(await mode(file)).toBe(0o600);
    const read = await readKeyFile(file);
    expect(read?.current).toBe('k2');
    expect(read?.keys.get('k2')?.equals(k2)).toBe(true);
    expect(read?.keys.get('k1')?.equals(ring.keys.get('k1')!)).toBe(true);
    expect(await readdir(path.dirname(file))).toEqual(['payout-keys.json']);
    // A ring that could not be used is never written.
    await expect(writeKeyFile(file, { current: 'k3', keys: new Map([['k2', k2]]) })).rejects.toThrow(/current key k3/);
    expect((await readKeyFile(file))?.current).toBe('k2');
  });

  it('is not made or read when PAYOUT_ENCRYPTION_KEYS gives the keys', async () => {
    const key = randomBytes(32);
    const sv = await openSealedValues({ payoutKeys: { current: 'prod1', keys: new Map([['prod1', key]]) }, dataDir });
    expect(keyIdOf(sv.seal('x', 'u'))).toBe('prod1');
    expect(await readdir(dataDir)).toEqual([]);
  });
});
