/**
 * The creator's own profile in the studio: name, bio, avatar and cover. A new image is announced
 * before it is stored and released in the transaction that links it, and the image it replaces
 * becomes pending in that same transaction, so neither a failure nor a crash leaves a file behind.
 */
import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { ImageRejected, ImageTooLarge, reencodeImage } from '../../platform/media/images.ts';
import { mediaUrl, storageKeyOf } from '../../platform/storage/media-urls.ts';
import { newKey, type ObjectStorage } from '../../platform/storage/object-storage.ts';
import type { PendingObjects, StoredFile } from '../../platform/storage/pending-objects.ts';
import * as repo from './repository.ts';
import { tierOf } from './service.ts';

export async function ownProfile(db: Kysely<DB>, userId: string) {
  const u = await repo.findOwnProfile(db, userId);
  return { ...u, created_at: u.created_at.toISOString(), tier: await tierOf(db, userId) };
}

export async function updateProfile(db: Kysely<DB>, userId: string, edit: { display_name?: string; bio?: string }): Promise<void> {
  const changes: { display_name?: string; bio?: string; updated_at: Date } = { updated_at: new Date() };
  if (edit.display_name !== undefined) {
    if (!edit.display_name.trim()) throw AppError.badRequest('Please enter a display name.');
    changes.display_name = edit.display_name.trim();
  }
  if (edit.bio !== undefined) changes.bio = edit.bio.trim();
  await repo.updateProfileFields(db, userId, changes);
}

export interface ProfileImageDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  pending: PendingObjects;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** Re-encodes and stores an avatar (at most 1024 px) or cover (3000 px) image, replacing the old one. */
export async function replaceProfileImage(deps: ProfileImageDeps, userId: string, kind: 'avatar' | 'cover', data: Buffer): Promise<void> {
  let image;
  try {
    image = await reencodeImage(data, { maxSide: kind === 'avatar' ? 1024 : 3000 });
  } catch (err) {
    if (err instanceof ImageRejected) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.profileNotImage);
    if (err instanceof ImageTooLarge) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, err.message);
    throw err;
  }
  const column = kind === 'avatar' ? 'profile_image_url' : 'cover_image_url';
  const file: StoredFile = { bucket: 'profile-images', key: newKey('jpg') };
  await deps.pending.announce([file]);
  let replaced: StoredFile | null = null;
  try {
    await deps.storage.put(file.bucket, file.key, image.data);
    await deps.db.transaction().execute(async (trx) => {
      const oldKey = storageKeyOf('profile-images', await repo.lockProfileImage(trx, userId, column));
      await repo.setProfileImage(trx, userId, column, mediaUrl('profile-images', file.key));
      await deps.pending.release(trx, [file]);
      if (oldKey) {
        // The image it replaces becomes pending with this change, and is removed just after.
        replaced = { bucket: 'profile-images', key: oldKey };
        await deps.pending.retire(trx, [replaced]);
      }
    });
  } catch (err) {
    await deps.pending.discard([file]);
    deps.log.error({ err }, 'profile image upload failed');
    throw new AppError(500, ERROR_CODES.INTERNAL, UPLOAD_MESSAGES.profileUploadFailed);
  }
  if (replaced) await deps.pending.discard([replaced]).catch((err: unknown) => deps.log.warn({ err }, 'old profile image left to the sweep'));
}
