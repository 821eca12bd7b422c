/**
 * Messages between the processes sharing one database, through PostgreSQL's LISTEN/NOTIFY: a
 * process that changes what others keep in memory (a cache) says so on a channel, and every
 * process listening on it, itself included, hears it once the change has committed.
 *
 * On a PostgreSQL server the listening takes one connection of its own, outside the pool. If
 * that connection drops, it is opened again (after a second, then longer) and each listener is
 * called with null: messages may have been missed meanwhile, so whatever they guard should be
 * dropped whole. The embedded PGlite is one process; its own LISTEN/NOTIFY delivers the same
 * messages to the same listeners.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { listenOn, notifyOn, unlistenOn } from './repository.ts';
import type { DB } from './schema.ts';

/** Called with a message's payload, or with null when messages may have been missed. */
export type Listener = (payload: string | null) => void;

export interface Notifications {
  /** Calls `listener` for every message on `channel` until the returned function is called. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  /** Sends `payload` to every process listening on `channel`. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

const RETRY_MS = [1000, 2000, 5000, 10_000];

export function serverNotifications(url: string, db: Kysely<DB>, log: (msg: string, err?: unknown) => void = () => {}): Notifications {
  const listeners = new Map<string, Set<Listener>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | null = null;

  const tell = (channel: string, payload: string | null) => {
    for (const l of listeners.get(channel) ?? []) {
      try {
        l(payload);
      } catch (err) {
        log(`a listener of ${channel} failed`, err);
      }
    }
  };

  async function connect(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (m) => tell(m.channel, m.payload ?? ''));
    c.on('error', (err) => log('the notifications connection failed', err));
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      if (!closed) reconnectLater();
    });
    await c.connect();
    for (const channel of listeners.keys()) await listenOn(c, channel);
    return c;
  }

  function open(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= connect().then(
      (c) => {
        connecting = null;
        if (closed) {
          void c.end().catch(() => {});
          throw new Error('Notifications are closed');
        }
        client = c;
        failures = 0;
        return c;
      },
      (err) => {
        connecting = null;
        throw err;
      },
    );
    return connecting;
  }

  function reconnectLater() {
    if (retry || closed) return;
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
    failures++;
    retry = setTimeout(() => {
      retry = null;
      open().then(
        () => {
          // Whatever was said while the connection was down is lost: every listener starts over.
          for (const channel of listeners.keys()) tell(channel, null);
        },
        (err) => {
          log('could not reopen the notifications connection', err);
          reconnectLater();
        },
      );
    }, wait);
    retry.unref();
  }

  return {
    async listen(channel, listener) {
      const c = await open();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await listenOn(c, channel);
      }
      set.add(listener);
      return async () => {
        const s = listeners.get(channel);
        if (!s?.delete(listener) || s.size > 0) return;
        listeners.delete(channel);
        if (client && !closed) await unlistenOn(client, channel).catch(() => {});
      };
    },
    notify: (channel, payload) => notifyOn(db, channel, payload),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      listeners.clear();
      const c = client ?? (await connecting?.catch(() => null));
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

export function embeddedNotifications(pglite: PGlite, db: Kysely<DB>): Notifications {
  const stops = new Set<() => Promise<void>>();
  return {
    async listen(channel, listener) {
      const unlisten = await pglite.listen(channel, (payload) => listener(payload));
      const stop = async () => {
        if (!stops.delete(stop)) return;
        await unlisten().catch(() => {});
      };
      stops.add(stop);
      return stop;
    },
    notify: (channel, payload) => notifyOn(db, channel, payload),
    async close() {
      await Promise.all([...stops].map((s) => s()));
    },
  };
}
