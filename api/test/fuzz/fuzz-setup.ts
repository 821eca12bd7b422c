/**
 * What the fuzz runs against, made straight in a fresh database: a creator and an admin to sign
 * in as, and a few things that exist (an approved video with its file and thumbnail stored, a
 * paid order) whose ids and names the
 * fuzzer tries now and then, so that requests also reach real rows, not only 404s.
 */
import type { Kysely } from 'kysely';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTestMedia, TEST_MEDIA_DIR } from '../../../scripts/make-test-media.ts';
import { createUser } from '../../modules/accounts/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import type { Known } from './openapi-requests.ts';

export interface FuzzSetup {
  creatorId: string;
  adminId: string;
  known: Known;
}

export async function prepareFuzz(db: Kysely<DB>, storage: ObjectStorage): Promise<FuzzSetup> {
  const creator = await createUser(db, { email: 'fuzz-creator@example.com', displayName: 'Fuzz Creator', role: 'creator', emailVerified: true });
  // An admin is a customer with is_admin, as the seed makes one.
  const admin = await createUser(db, { email: 'fuzz-admin@example.com', displayName: 'Fuzz Admin', role: 'customer', emailVerified: true });
  await db.updateTable('users').set({ is_admin: true }).where('id', '=', admin.id).execute();
  const videoKey = 'fz/fuzz-clip.mp4';
  const thumbnailKey = 'fz/fuzz-clip.jpg';
  await makeTestMedia();
  const clip = await readFile(path.join(TEST_MEDIA_DIR, 'h264-small.mp4'));
  await storage.put('videos', videoKey, clip);
  await storage.put('thumbnails', thumbnailKey, await readFile(path.join(TEST_MEDIA_DIR, 'thumbnail.jpg')));
  const video = await db
    .insertInto('videos')
    .values({ user_id: creator.id, title: 'Fuzz clip', video_key: videoKey, thumbnail_key: thumbnailKey, content_type: 'video/mp4', size_bytes: clip.length, duration_ms: 2000, verification_status: 'approved' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const order = await db
    .insertInto('orders')
    .values({ status: 'paid', shipping_zip: '10001', shipping_country: 'US', subtotal_cents: 2500, shipping_cents: 500, total_cents: 3000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const videoUrl = `/media/videos/${videoKey}`;
  return {
    creatorId: creator.id,
    adminId: admin.id,
    known: {
      id: [video.id, order.id],
      slug: [creator.username],
      username: [creator.username],
      video_url: [videoUrl],
      videoUrl: [videoUrl],
      email: [creator.email],
      key: ['maintenance_banner', 'moderation_required', 'payout_threshold_default_cents'],
    },
  };
}
