/**
 * Rotates the key bank details are sealed with, and re-encrypts every sealed value under it (the
 * users' bank details and the NACHA entries' receiver numbers: every column in
 * api/platform/crypto/repository.ts SEALED_COLUMNS).
 * Reads the same configuration as the server (DATA_DIR, DATABASE_URL, PAYOUT_ENCRYPTION_KEYS).
 *
 * With the key file ($DATA_DIR/keys/payout-keys.json, no PAYOUT_ENCRYPTION_KEYS):
 *   npm run payouts:rotate-key                     a new key becomes current in the file, every value is
 *                                                  sealed again under it, and old keys no value uses leave the file
 *   npm run payouts:rotate-key -- --rewrap-only    no new key: finish a rotation that was cut short
 * On the embedded database stop the server first (one process opens it); restart every process
 * that reads the key file afterwards, so it has the new key.
 *
 * With PAYOUT_ENCRYPTION_KEYS (the command cannot change the environment of the servers):
 *   npm run payouts:rotate-key                     makes a key and prints the new variable value; nothing is re-encrypted
 *   (set that value on every process and restart them: they seal under the new key and still open the old)
 *   npm run payouts:rotate-key -- --new-key k3:<base64>   or  --new-key -  (read from standard input)
 *                                                  every value sealed again under that key, then the value to keep
 *                                                  (the old keys no value uses dropped) is printed
 *   npm run payouts:rotate-key -- --rewrap-only    the same with the variable's current key
 *
 * Values go in batches of 500 rows, each batch in its own transaction, so running the command
 * again after a crash finishes the job. Exit status 1 when some value could not be opened.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { databaseTarget } from '../api/bootstrap.ts';
import { ConfigError, loadConfig, type Config } from '../api/platform/config/config.ts';
import { payoutKeyFile, readKeyFile } from '../api/platform/crypto/key-file.ts';
import { nextKeyId, rotateKeyFile, rotateTo, withCurrentKey, type RewrapOptions, type RotationResult } from '../api/platform/crypto/rotation.ts';
import { formatKeyList, generateKey, parseKeyList } from '../api/platform/crypto/sealed-values.ts';
import { openDatabase } from '../api/platform/db/database.ts';
import { migrate } from '../api/platform/db/migrate.ts';

const USAGE = `Usage: npm run payouts:rotate-key [-- --rewrap-only | --new-key <id>:<base64 key> | --new-key -] [--batch-size N]`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

function summary(result: RotationResult): void {
  const { report, usage, retired, ring } = result;
  console.log(
    `Sealed values: ${report.seen} seen in ${report.batches} batch(es); ${report.rewrapped} re-encrypted under ${ring.current}, ` +
      `${report.current} already under it, ${report.failed.length} could not be opened.`,
  );
  for (const f of report.failed) console.log(`  could not open ${f.table}.${f.column} of row ${f.rowId}: ${f.problem}`);
  const perKey = [...usage].map(([id, n]) => `${id || '(none)'}: ${n}`).join(', ');
  console.log(`Values per key now: ${perKey || 'none stored'}.`);
  if (retired.length > 0) console.log(`No value uses ${retired.join(', ')} any more: retired.`);
  const kept = [...ring.keys.keys()].filter((id) => id !== ring.current);
  if (kept.length > 0) {
    const why = report.failed.length > 0 ? 'a value that could not be opened keeps its key until it is mended or removed; ' : '';
    console.log(`Kept, still in use: ${kept.join(', ')} (${why}run again to finish).`);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      'new-key': { type: 'string' },
      'rewrap-only': { type: 'boolean', default: false },
      'batch-size': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const batchSize = values['batch-size'] === undefined ? 500 : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) fail(`--batch-size must be a whole number from 1 to 10000.\n${USAGE}`);
  if (values['new-key'] !== undefined && values['rewrap-only']) fail(`--new-key and --rewrap-only do not go together.\n${USAGE}`);

  const envRing = config.payoutKeys;
  let newKeyText = values['new-key'];
  if (newKeyText !== undefined && !envRing) {
    fail('--new-key is for PAYOUT_ENCRYPTION_KEYS; with the key file the command makes the new key itself.');
  }
  if (envRing && newKeyText === undefined && !values['rewrap-only']) {
    // Step 1 with the variable: a new key to deploy first, so every process can open what is re-encrypted.
    const id = nextKeyId(envRing);
    const key = generateKey();
    const next = withCurrentKey(envRing, id, key);
    console.log(`New payout key ${id}. Nothing has been re-encrypted yet.\n`);
    console.log('1. Set this on every process and restart them (they seal under the new key and still open the old values):\n');
    console.log(`   PAYOUT_ENCRYPTION_KEYS=${formatKeyList(next)}\n`);
    console.log('2. Then re-encrypt the stored values under it:\n');
    console.log(`   npm run payouts:rotate-key -- --new-key -     (and give ${id}:${key.toString('base64')} on standard input)`);
    console.log('   or, with the new value in this environment:  npm run payouts:rotate-key -- --rewrap-only');
    return;
  }

  let ring = envRing;
  if (envRing && newKeyText !== undefined) {
    if (newKeyText === '-') newKeyText = readFileSync(0, 'utf8').trim();
    const parsed = parseKeyList(newKeyText);
    if (!parsed.ring || parsed.ring.keys.size !== 1) fail(`--new-key must be one id:key pair, a 32-byte key in base64: ${parsed.problems.join('; ') || 'got several'}`);
    const id = parsed.ring.current;
    try {
      ring = withCurrentKey(envRing, id, parsed.ring.keys.get(id)!);
    } catch (err) {
      fail(`--new-key: ${(err as Error).message}`);
    }
  }

  const file = payoutKeyFile(config.dataDir);
  if (!ring && !(await readKeyFile(file))) {
    fail(`There is no payout key file at ${file}: start the server once to make it (or set PAYOUT_ENCRYPTION_KEYS).`);
  }

  const database = await openDatabase(databaseTarget(config));
  let failed = 0;
  try {
    await migrate(database.db);
    const progress: RewrapOptions = {
      batchSize,
      afterBatch: ({ index, table, rows, updated }) => console.log(`  batch ${index} (${table}): ${rows} rows, ${updated} updated`),
    };
    if (ring) {
      console.log(`Re-encrypting sealed values under ${ring.current} (PAYOUT_ENCRYPTION_KEYS), ${batchSize} rows a batch.`);
      const result = await rotateTo(database.db, ring, progress);
      summary(result);
      failed = result.report.failed.length;
      console.log(`\nPAYOUT_ENCRYPTION_KEYS to keep (set it on every process):\n\n   PAYOUT_ENCRYPTION_KEYS=${formatKeyList(result.ring)}\n`);
    } else {
      const result = await rotateKeyFile(database.db, file, { ...progress, rewrapOnly: values['rewrap-only'], log: (line) => console.log(line) });
      summary(result);
      failed = result.report.failed.length;
      console.log(`The key file ${file} holds ${[...result.ring.keys.keys()].join(', ')} (current ${result.ring.current}). Restart every process that reads it.`);
    }
  } finally {
    await database.close();
  }
  if (failed > 0) process.exit(1);
}

main().catch((err) => {
  // The message says what to do; DEBUG=1 shows where it came from.
  console.error(err instanceof Error && !process.env.DEBUG ? err.message : err);
  process.exit(1);
});
