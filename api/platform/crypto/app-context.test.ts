/**
 * The app's sealed values: the harness gives every test app the fixed test key; an app built
 * without them opens the key file; a start with a key file others may read stops with a
 * configuration error before the database is opened.
 */
import { chmod, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { prepare } from '../../bootstrap.ts';
import { NO_BACKGROUND, testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { ConfigError } from '../config/config.ts';
import { loadOrCreateKeyFile, payoutKeyFile } from './key-file.ts';
import { keyIdOf } from './sealed-values.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sealed values in the app', () => {
  it('the test harness seals with the fixed test key and makes no key file', async () => {
    expect(t.app.sealedValues).toBe(t.sealedValues);
    expect(t.app.sealedValues.currentKeyId).toBe('test');
    const sealed = t.app.sealedValues.seal('000123456789', 'user-1');
    expect(keyIdOf(sealed)).toBe('test');
    expect(t.app.sealedValues.open(sealed, 'user-1')).toBe('000123456789');
    expect(await readdir(t.config.dataDir)).not.toContain('keys');
  });

  it('an app built without them opens the key file in the data directory (made 0600 on first use)', async () => {
    const config = await testConfig({ PAYOUT_ENCRYPTION_KEYS: '' });
    expect(config.payoutKeys).toBeNull();
    const app = await buildApp({ config, database: t.database, storage: t.storage, catalogue: t.app.catalogue, ownsDatabase: false }, NO_BACKGROUND);
    try {
      expect(app.sealedValues.currentKeyId).toBe('k1');
      expect((await stat(payoutKeyFile(config.dataDir))).mode & 0o777).toBe(0o600);
    } finally {
      await app.close();
      await rm(config.dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform === 'win32')('a start with a key file of mode 0644 stops with a configuration error, before the database is opened', async () => {
    const config = await testConfig({ PAYOUT_ENCRYPTION_KEYS: '', SEED_DEMO: 'false' });
    try {
      const file = payoutKeyFile(config.dataDir);
      await loadOrCreateKeyFile(file);
      await chmod(file, 0o644);
      const err = await prepare(config).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).message).toContain(`chmod 600 ${file}`);
      expect(await readdir(config.dataDir)).toEqual(['keys']);
      expect(path.dirname(file)).toBe(path.join(config.dataDir, 'keys'));
    } finally {
      await rm(config.dataDir, { recursive: true, force: true });
    }
  });
});
