/**
 * A Kysely dialect over PGlite. PGlite is one connection inside this process, so the driver
 * hands it out to one caller at a time: a transaction holds it from BEGIN to COMMIT and
 * every other query waits its turn.
 */
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

class Mutex {
  #tail: Promise<void> = Promise.resolve();

  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return ready;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query.parameters.length === 0) {
      // The simple protocol runs scripts of several statements (migrations); the last result counts.
      const results = await this.pg.exec(query.sql);
      const last = results[results.length - 1];
      return {
        rows: (last?.rows ?? []) as R[],
        numAffectedRows: last?.affectedRows !== undefined ? BigInt(last.affectedRows) : undefined,
      };
    }
    // eslint-disable-next-line no-restricted-syntax -- the driver passes Kysely's compiled query on; it writes no SQL of its own
    const result = await this.pg.query<R>(query.sql, query.parameters as unknown[]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows !== undefined ? BigInt(result.affectedRows) : undefined,
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database');
  }
}

class PGliteDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();

  constructor(private readonly pg: PGlite) {}

  async init(): Promise<void> {
    await this.pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    const connection = new PGliteConnection(this.pg);
    this.#releases.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#releases.get(connection)?.();
    this.#releases.delete(connection);
  }

  async destroy(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return new PGliteDriver(this.pg);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
