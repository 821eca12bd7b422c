/** SQL for the demo content: every row is inserted by its seed key, so seeding again adds nothing. */
import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema.ts';

export async function hasSeedMarker(db: Kysely<DB>, marker: string): Promise<boolean> {
  return Boolean(await db.selectFrom('admin_settings').select('key').where('key', '=', marker).executeTakeFirst());
}

export async function insertSeedMarker(db: Kysely<DB>, marker: string, at: Date): Promise<void> {
  await db.insertInto('admin_settings').values({ key: marker, value: JSON.stringify({ at: at.toISOString() }) }).execute();
}

export interface SeedUser {
  seed_key: string;
  email: string;
  email_verified: boolean;
  username: string;
  display_name: string;
  bio?: string;
  role: 'creator' | 'customer';
  is_admin?: boolean;
  password_hash?: string;
  created_at?: Date;
}

export async function insertSeedUser(db: Kysely<DB>, user: SeedUser): Promise<void> {
  await db.insertInto('users').values(user).onConflict((oc) => oc.column('seed_key').doNothing()).execute();
}

export async function seedUserId(db: Kysely<DB>, seedKey: string): Promise<string> {
  return (await db.selectFrom('users').select('id').where('seed_key', '=', seedKey).executeTakeFirstOrThrow()).id;
}

export interface SeedVideo {
  seed_key: string;
  user_id: string;
  title: string;
  description: string;
  category: string;
  category_id: number;
  video_key: string;
  thumbnail_key: string;
  poster_key: string;
  content_type: 'video/mp4';
  size_bytes: number;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  view_count: number;
  created_at: Date;
}

export async function insertSeedVideo(db: Kysely<DB>, video: SeedVideo): Promise<void> {
  await db.insertInto('videos').values(video).onConflict((oc) => oc.column('seed_key').doNothing()).execute();
}
