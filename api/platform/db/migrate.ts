/**
 * Applies the numbered SQL files in migrations/ in order. Each file runs in its own
 * transaction together with its bookkeeping row, so a crash mid-start leaves either the whole
 * migration or none of it; a second run applies nothing. An advisory lock keeps two starting
 * processes from migrating at once.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { appliedMigrations, applyMigration, ensureMigrationsTable, lockMigrations, unlockMigrations } from './repository.ts';
import type { DB } from './schema.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_ID = 727_2001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const m = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!m) throw new MigrationError(`Migration file name must look like 0001_name.sql: ${file}`);
    const text = await readFile(path.join(dir, file), 'utf8');
    const version = Number(m[1]);
    if (migrations.some((x) => x.version === version)) throw new MigrationError(`Two migrations numbered ${version}`);
    migrations.push({ version, name: m[2]!, sql: text, checksum: createHash('sha256').update(text).digest('hex') });
  }
  return migrations;
}

export async function migrate(db: Kysely<DB>, migrations?: Migration[]): Promise<number[]> {
  const all = migrations ?? (await loadMigrations());
  return db.connection().execute(async (conn) => {
    await lockMigrations(conn, LOCK_ID);
    try {
      await ensureMigrationsTable(conn);
      const done = await appliedMigrations(conn);
      const applied: number[] = [];
      for (const m of all) {
        const known = done.get(m.version);
        if (known !== undefined) {
          if (known !== m.checksum) {
            throw new MigrationError(
              `Migration ${m.version}_${m.name} changed after it was applied; add a new migration instead of editing it`,
            );
          }
          continue;
        }
        await conn.transaction().execute((trx) => applyMigration(trx, m));
        applied.push(m.version);
      }
      return applied;
    } finally {
      await unlockMigrations(conn, LOCK_ID);
    }
  });
}
