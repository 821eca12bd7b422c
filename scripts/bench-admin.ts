/**
 * The admin portal at scale, on PostgreSQL: 100,000 users and 1,000,000 videos, then the
 * dashboard and the user and video lists through the real app (inject(), signed in as an admin,
 * every request answered by the database: the read cache is off), each timed N times after a
 * warm-up. Each list is timed on its first page and on its 500th (reached by following
 * next_cursor page by page once, then that page's cursor is fetched N times), with no filter,
 * each status filter and a search. GET /api/health through the same path is the machine's floor.
 *
 * The seed is set-based (INSERT ... SELECT generate_series). It is made on the migrations before
 * 0016_admin_indexes.sql, which is then applied to the populated tables (building its indexes and
 * counting the existing rows, as it does on a live database).
 *
 *   npm run bench:admin                                 100,000 users, 1,000,000 videos
 *   npm run bench:admin -- --users 5000 --videos 50000  smaller
 *   --iterations N (default 200), --warmup N (default 20)
 *   --keep                                              keep the scratch database (its URL is printed) to look at plans
 *   BENCH_DATABASE_URL or DATABASE_URL                  the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
 *                                                       a scratch database is made on it and dropped at the end
 *
 * Users: 60 % creators, 1 in 997 an admin, 1 in 7 suspended; display names "First Last", one in
 * eight of them Garcia (so a search for "garcia" has more than 500 pages at full size); username
 * and email carry the user's number. Videos: spread over the creators and over three years,
 * 70 % verified at sign-in, 15 % approved, 10 % pending, 5 % rejected; one title in eight has
 * "Timelapse" in it, and every title ends with " #<number>".
 *
 * Exit status 1 when a p99 is 100 ms or more (BENCH_STRICT=0 to always exit 0).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { rm } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { openStorage } from '../api/integrations/s3/index.ts';
import { buildApp } from '../api/app.ts';
import { createUser } from '../api/modules/accounts/index.ts';
import { readCatalogue, syncCatalogue } from '../api/modules/merch/index.ts';
import { openSealedValues } from '../api/platform/crypto/key-file.ts';
import { createScratchDatabase, openDatabase, type Database } from '../api/platform/db/database.ts';
import { loadMigrations, migrate } from '../api/platform/db/migrate.ts';
import type { DB } from '../api/platform/db/schema.ts';
import { createSession, SESSION_COOKIE } from '../api/platform/sessions/sessions.ts';
import { NO_BACKGROUND, testConfig } from '../api/test/harness.ts';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '100000' },
    videos: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
});
const USERS = Number(args.users);
const VIDEOS = Number(args.videos);
const ITERATIONS = Number(args.iterations);
const WARMUP = Number(args.warmup);
const SERVER = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_MS = 100;
const DEEP_PAGE = 500;
/** The migration this bench applies to the populated tables. */
const INDEX_MIGRATION = 16;
/** Video rows written per INSERT ... SELECT. */
const CHUNK = 200_000;

for (const [name, n] of Object.entries({ users: USERS, videos: VIDEOS, iterations: ITERATIONS, warmup: WARMUP })) {
  if (!Number.isInteger(n) || n < (name === 'warmup' ? 0 : 1)) throw new Error(`--${name} must be a positive whole number`);
}

const int = (n: number) => n.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (n: number) => n.toFixed(2).padStart(7);

const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Elijah', 'Sophia', 'Lucas', 'Mia', 'Mateo', 'Amelia', 'Levi', 'Harper', 'Ezra', 'Evelyn', 'Asher',
  'Luna', 'Leo', 'Aria', 'James', 'Ella', 'Aiden', 'Nova', 'Owen', 'Chloe', 'Hudson', 'Layla', 'Ethan', 'Zoe', 'Kai', 'Nora', 'Miles',
];
const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Wilson', 'Anderson',
  'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez',
];
const ADJECTIVES = ['Golden', 'Quiet', 'Rainy', 'Neon', 'Frozen', 'Windy', 'Early', 'Late', 'Wild', 'Urban', 'Coastal', 'Misty', 'Bright', 'Hidden'];
const SUBJECTS = ['Harbor', 'Skyline', 'Forest', 'Market', 'Canyon', 'Bridge', 'Garden', 'Desert', 'Station', 'Meadow', 'Glacier', 'Alley'];
const FORMS = ['Walk', 'Drone Flight', 'Vlog', 'Tour', 'Session', 'Ride', 'Study'];
const textArray = (xs: string[]) => sql`array[${sql.join(xs.map((x) => sql.lit(x)))}]::text[]`;

/**
 * Users 1..U: user n is created n * (3 years / U) after the start, with a few seconds' jitter;
 * 60 % creators, 1 in 997 an admin, 1 in 7 suspended, 1 in 8 named Garcia.
 * Videos 1..V: video g belongs to creator (g * 7919) mod C (so each creator's videos spread over
 * time), made g * (3 years / V) after the start with jitter, its status by g mod 20.
 */
async function seed(db: Kysely<DB>, log: (line: string) => void): Promise<void> {
  const start = '2023-11-26T00:00:00Z';
  const span = 3 * 365 * 24 * 3600;
  let t0 = performance.now();
  await sql`
    insert into users (email, email_verified, username, display_name, role, is_admin, status, created_at, updated_at)
    select lower(f) || '.' || lower(l) || '.' || n || '@example.com', true, lower(f) || lower(l) || n, f || ' ' || l,
           case when n % 5 < 3 then 'creator' else 'customer' end, n % 997 = 0,
           case when n % 7 = 3 then 'suspended' else 'active' end, at, at
    from (
      select n,
             (${textArray(FIRST_NAMES)})[1 + (n * 31) % ${FIRST_NAMES.length}] as f,
             case when n % 8 = 5 then 'Garcia' else (${textArray(LAST_NAMES)})[1 + (n * 17) % ${LAST_NAMES.length}] end as l,
             ${start}::timestamptz + make_interval(secs => (n::float8 * ${span} / ${USERS}) + (n * 7) % 11) as at
      from generate_series(1, ${USERS}::int) as n
    ) s`.execute(db);
  log(`    users: ${int(USERS)} in ${secs(performance.now() - t0)}`);

  await sql`create table bench_creators (k int primary key, id uuid not null)`.execute(db);
  await sql`insert into bench_creators (k, id) select row_number() over (order by created_at, id) - 1, id from users where role = 'creator'`.execute(db);
  const creators = Number((await sql<{ n: string }>`select count(*) as n from bench_creators`.execute(db)).rows[0]!.n);

  for (let from = 1; from <= VIDEOS; from += CHUNK) {
    const to = Math.min(VIDEOS, from + CHUNK - 1);
    t0 = performance.now();
    await sql`
      insert into videos (user_id, title, category, category_id, video_key, thumbnail_key, content_type, size_bytes, duration_ms,
                          width, height, view_count, verification_status, created_at, updated_at)
      select c.id,
             (${textArray(ADJECTIVES)})[1 + (g * 13) % ${ADJECTIVES.length}] || ' ' ||
               (${textArray(SUBJECTS)})[1 + (g * 29) % ${SUBJECTS.length}] || ' ' ||
               case when g % 8 = 6 then 'Timelapse' else (${textArray(FORMS)})[1 + (g * 11) % ${FORMS.length}] end || ' #' || g,
             'gaming', 1, 'bench/' || g || '.mp4', 'bench/' || g || '.jpg', 'video/mp4', 1000000 + g, 5000 + (g % 600) * 1000,
             1920, 1080, g % 5000,
             case when g % 20 < 14 then 'verified_via_supabase_auth' when g % 20 < 17 then 'approved'
                  when g % 20 < 19 then 'pending' else 'rejected' end,
             at, at
      from (
        select g, ${start}::timestamptz + make_interval(secs => (g::float8 * ${span} / ${VIDEOS}) + (g * 13) % 7) as at
        from generate_series(${from}::int, ${to}::int) as g
      ) v
      join bench_creators c on c.k = (g::bigint * 7919) % ${creators}`.execute(db);
    log(`    videos: ${int(to)} of ${int(VIDEOS)} (${secs(performance.now() - t0)})`);
  }
  await sql`drop table bench_creators`.execute(db);
}

interface Case {
  name: string;
  url: string;
  /** The list's key in the answer, for the page walk. */
  list?: 'users' | 'videos';
}

interface Timing {
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;

async function main() {
  const log = (line: string) => console.log(line);
  console.log(
    `bench:admin: ${int(USERS)} users, ${int(VIDEOS)} videos on PostgreSQL (${new URL(SERVER).host}); ` +
      `${ITERATIONS} timed requests per case after ${WARMUP} of warm-up, through inject(), read cache off`,
  );
  const scratch = await createScratchDatabase(SERVER, 'framemerch_bench_admin');
  const config = await testConfig({ PUBLIC_URL: 'http://localhost:3000' });
  let database: Database | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    database = await openDatabase({ url: scratch.url });
    const db = database.db;
    const server = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0]!.v;
    log(`  PostgreSQL ${server}; ${os.cpus().length} CPU cores (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GB`);
    const migrations = await loadMigrations();
    await migrate(db, migrations.filter((m) => m.version < INDEX_MIGRATION));
    log('  seeding');
    const seedStart = performance.now();
    await seed(db, log);
    log(`    seeded in ${secs(performance.now() - seedStart)}`);
    let t0 = performance.now();
    const applied = await migrate(db, migrations);
    log(`  migrations applied to the populated tables: ${applied.map((v) => String(v).padStart(4, '0')).join(', ') || 'none'} (${secs(performance.now() - t0)})`);
    t0 = performance.now();
    await sql`vacuum analyze`.execute(db);
    log(`  vacuum analyze, as autovacuum leaves settled tables (${secs(performance.now() - t0)})`);

    await syncCatalogue(db, await readCatalogue());
    const storage = await openStorage(config);
    const sealedValues = await openSealedValues(config);
    app = await buildApp({ config, database, storage, catalogue: await readCatalogue(), sealedValues, ownsDatabase: false }, NO_BACKGROUND);
    const host = new URL(config.publicUrl).host;

    const adminUser = await createUser(db, { email: 'bench-admin@example.com', displayName: 'Bench Admin', role: 'customer', emailVerified: true });
    await sql`update users set is_admin = true where id = ${adminUser.id}`.execute(db);
    const { token } = await createSession(db, adminUser.id, 1, {});
    const cookies = { [SESSION_COOKIE]: token };
    const get = async (url: string) => {
      const res = await app!.inject({ method: 'GET', url, headers: { host }, cookies });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };

    const time = async (url: string): Promise<Timing> => {
      for (let i = 0; i < WARMUP; i++) await get(url);
      const times: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        const started = performance.now();
        await get(url);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
    };

    /** The 500th page's URL, following next_cursor from the first page; null when the list ends sooner (with its page count). */
    const deepPage = async (c: Case): Promise<{ url: string | null; pages: number }> => {
      let url = c.url;
      for (let page = 1; page < DEEP_PAGE; page++) {
        const body = (await get(url)).json() as { next_cursor: string | null };
        if (!body.next_cursor) return { url: null, pages: page };
        url = `${c.url}${c.url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(body.next_cursor)}`;
      }
      const rows = ((await get(url)).json() as Record<string, unknown[]>)[c.list!]!;
      if (rows.length === 0) throw new Error(`${c.name}: page ${DEEP_PAGE} is empty`);
      return { url, pages: DEEP_PAGE };
    };

    const cases: Case[] = [
      { name: 'users', url: '/api/admin/users', list: 'users' },
      { name: 'users status=active', url: '/api/admin/users?status=active', list: 'users' },
      { name: 'users status=suspended', url: '/api/admin/users?status=suspended', list: 'users' },
      { name: 'users q=garcia (1 in 8)', url: '/api/admin/users?q=garcia', list: 'users' },
      { name: 'users q=4242@ (a few)', url: `/api/admin/users?q=${encodeURIComponent('4242@')}`, list: 'users' },
      { name: 'videos', url: '/api/admin/videos', list: 'videos' },
      { name: 'videos status=pending', url: '/api/admin/videos?status=pending', list: 'videos' },
      { name: 'videos status=approved', url: '/api/admin/videos?status=approved', list: 'videos' },
      { name: 'videos status=rejected', url: '/api/admin/videos?status=rejected', list: 'videos' },
      { name: 'videos q=timelapse (titles)', url: '/api/admin/videos?q=timelapse', list: 'videos' },
      { name: 'videos q=garcia (creators)', url: '/api/admin/videos?q=garcia', list: 'videos' },
      { name: 'videos q=#4242 (a few)', url: `/api/admin/videos?q=${encodeURIComponent('#4242')}`, list: 'videos' },
    ];

    const rows: Array<{ name: string; t: Timing | null; note?: string }> = [];
    log('  timing');
    rows.push({ name: 'GET /api/health (baseline)', t: await time('/api/health') });
    rows.push({ name: 'dashboard', t: await time('/api/admin/dashboard-stats') });
    for (const c of cases) {
      rows.push({ name: `${c.name}, page 1`, t: await time(c.url) });
      const deep = await deepPage(c);
      rows.push(
        deep.url
          ? { name: `${c.name}, page ${DEEP_PAGE}`, t: await time(deep.url) }
          : { name: `${c.name}, page ${DEEP_PAGE}`, t: null, note: `n/a: the list has ${deep.pages} page${deep.pages === 1 ? '' : 's'}` },
      );
    }

    // For comparison, as SQL alone on the same data: what these requests cost before
    // 0016_admin_indexes.sql, i.e. the dashboard's former counts of the users and videos tables,
    // the user search without the trigram indexes, and the former video search (one condition
    // OR-ed across videos and users, lower() LIKE) without them. The indexes are dropped in a
    // transaction that is rolled back afterwards.
    log('  timing the former queries');
    const before: Array<{ name: string; t: Timing }> = [];
    const BEFORE_RUNS = Math.min(ITERATIONS, 10);
    await db.connection().execute(async (conn) => {
      const timeSql = async (name: string, query: () => Promise<unknown>) => {
        for (let i = 0; i < Math.min(WARMUP, 1); i++) await query();
        const times: number[] = [];
        for (let i = 0; i < BEFORE_RUNS; i++) {
          const started = performance.now();
          await query();
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        before.push({ name, t: { p50: percentile(times, 0.5), p99: percentile(times, 0.99) } });
      };
      await timeSql('dashboard: the six user and video counts', () =>
        sql`
          select (select count(*) from users) as total_users,
                 (select count(*) from users where status = 'active') as active_users,
                 (select count(*) from users where status = 'suspended') as suspended_users,
                 (select count(*) from videos) as total_videos,
                 (select count(*) from videos where verification_status = 'pending') as pending_videos,
                 (select count(*) from videos where verification_status in ('approved', 'verified_via_supabase_auth')) as approved_videos`.execute(conn),
      );
      await sql`begin`.execute(conn);
      try {
        await sql`drop index users_display_name_trgm, users_username_trgm, users_email_trgm, videos_title_trgm`.execute(conn);
        const users = (pattern: string) => () =>
          sql`
            select u.id, u.email, u.username, u.display_name, u.role, u.is_admin, u.status, u.created_at,
                   (select count(*) from videos v where v.user_id = u.id) as videos_count,
                   to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_ts
            from users u
            where (u.display_name ilike ${pattern} escape '\\' or u.username ilike ${pattern} escape '\\' or u.email ilike ${pattern} escape '\\')
            order by u.created_at desc, u.id desc limit 21`.execute(conn);
        const videos = (pattern: string) => () =>
          sql`
            select v.id, v.title, v.thumbnail_key, v.verification_status, v.created_at,
                   to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_ts, v.user_id, u.display_name, u.username
            from videos v join users u on u.id = v.user_id
            where (lower(v.title) like ${pattern} or lower(u.display_name) like ${pattern} or lower(u.username) like ${pattern})
            order by v.created_at desc, v.id desc limit 21`.execute(conn);
        await timeSql('users q=garcia (1 in 8), page 1', users('%garcia%'));
        await timeSql('users q=4242@ (a few), page 1', users('%4242@%'));
        await timeSql('videos q=timelapse (titles), page 1', videos('%timelapse%'));
        await timeSql('videos q=garcia (creators), page 1', videos('%garcia%'));
        await timeSql('videos q=#4242 (a few), page 1', videos('%#4242%'));
      } finally {
        await sql`rollback`.execute(conn);
      }
    });

    // The dashboard's figures must be those of the tables.
    const stats = ((await get('/api/admin/dashboard-stats')).json() as { stats: Record<string, number> }).stats;
    const truth = (
      await sql<Record<string, string>>`
        select (select count(*) from users) as total_users, (select count(*) from users where status = 'active') as active_users,
               (select count(*) from users where status = 'suspended') as suspended_users, (select count(*) from videos) as total_videos,
               (select count(*) from videos where verification_status = 'pending') as pending_videos,
               (select count(*) from videos where verification_status in ('approved', 'verified_via_supabase_auth')) as approved_videos`.execute(db)
    ).rows[0]!;
    const mismatched = Object.entries(truth).filter(([k, v]) => stats[k] !== Number(v));

    console.log(`\n  ${'case'.padEnd(44)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`);
    let missed = 0;
    for (const r of rows) {
      if (!r.t) {
        console.log(`  ${r.name.padEnd(44)} ${r.note}`);
        continue;
      }
      const baseline = r.name.includes('baseline');
      const ok = r.t.p99 < TARGET_MS;
      if (!ok && !baseline) missed++;
      console.log(`  ${r.name.padEnd(44)} ${ms(r.t.p50)} ${ms(r.t.p99)}${baseline ? '' : ok ? '' : '   over 100 ms'}`);
    }
    console.log(`\n  before 0016_admin_indexes.sql, as SQL alone on the same data (${BEFORE_RUNS} runs each)`);
    for (const r of before) console.log(`  ${r.name.padEnd(44)} ${ms(r.t.p50)} ${ms(r.t.p99)}`);
    console.log(
      `\n  dashboard figures equal the tables' counts: ${mismatched.length === 0 ? 'yes' : `NO (${mismatched.map(([k, v]) => `${k} ${stats[k]} vs ${v}`).join(', ')})`}`,
    );
    const timed = rows.filter((r) => r.t && !r.name.includes('baseline')).length;
    console.log(`  every p99 under ${TARGET_MS} ms: ${missed === 0 ? `yes (${timed} of ${timed})` : `NO (${missed} of ${timed} over)`}`);
    return missed === 0 && mismatched.length === 0;
  } finally {
    await app?.close();
    await database?.close();
    if (args.keep) console.log(`  kept the database: ${scratch.url}`);
    else await scratch.drop();
    await rm(config.dataDir, { recursive: true, force: true });
  }
}

const ok = await main();
process.exit(ok || process.env.BENCH_STRICT === '0' ? 0 : 1);
