/**
 * The upload form's checks (spec section 5, "Upload files" and "Upload submit"). Each
 * returns the text to show, cross mark included, or null when all is well.
 */
import { sizeLabel, UPLOAD_LIMITS, UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';

/** How the spec's messages write a limit ("100MB", "2GB"), shared with the server's messages. */
export { sizeLabel };

export type UploadTier = 'free' | 'pro';

/** What the checks need of a File (its MIME type and size), so they run without a DOM. */
export interface FileFacts {
  type: string;
  size: number;
}

export const crossed = (message: string) => `❌ ${message}`;

const MB = 1024 * 1024;
const GB = 1024 * MB;


/** A chosen file's size for people: "830 KB", "1.8 MB", "1.2 GB". */
export function formatBytes(bytes: number): string {
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`;
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function videoLimitBytes(tier: UploadTier): number {
  return UPLOAD_LIMITS[tier].videoBytes;
}

/** The spec's message for the free limit; the pro limit gets the same sentence with its own size. */
export function videoTooLargeMessage(tier: UploadTier): string {
  const free = UPLOAD_MESSAGES.videoTooLarge;
  return tier === 'free' ? free : free.replace(sizeLabel(UPLOAD_LIMITS.free.videoBytes), sizeLabel(videoLimitBytes(tier)));
}

/** A chosen video must be video/* and under the tier's limit. */
export function checkVideoFile(file: FileFacts, tier: UploadTier): string | null {
  if (!file.type.startsWith('video/')) return crossed(UPLOAD_MESSAGES.notAVideo);
  if (file.size >= videoLimitBytes(tier)) return crossed(videoTooLargeMessage(tier));
  return null;
}

/** A chosen thumbnail must be image/* and under the thumbnail limit. */
export function checkThumbnailFile(file: FileFacts): string | null {
  if (!file.type.startsWith('image/')) return crossed(UPLOAD_MESSAGES.notAnImage);
  if (file.size >= UPLOAD_LIMITS.thumbnailBytes) return crossed(UPLOAD_MESSAGES.imageTooLarge);
  return null;
}

export interface UploadDraft {
  title: string;
  description: string;
  video: FileFacts | null;
  thumbnail: FileFacts | null;
  signedIn: boolean;
}

/** The field a submit check points at, so the form can move focus there. */
export type DraftField = 'title' | 'description' | 'video' | 'thumbnail' | 'account';

/** Submit checks in the spec's order; the first failure wins. */
export function checkDraft(draft: UploadDraft): { field: DraftField; message: string } | null {
  if (draft.title.trim() === '') return { field: 'title', message: crossed(UPLOAD_MESSAGES.titleRequired) };
  if (draft.description.trim() === '') return { field: 'description', message: crossed(UPLOAD_MESSAGES.descriptionRequired) };
  if (!draft.video) return { field: 'video', message: crossed(UPLOAD_MESSAGES.videoRequired) };
  if (!draft.thumbnail) return { field: 'thumbnail', message: crossed(UPLOAD_MESSAGES.thumbnailRequired) };
  if (!draft.signedIn) return { field: 'account', message: crossed(UPLOAD_MESSAGES.signInToUpload) };
  return null;
}

/** Where a creator raises their limits. */
export const UPGRADE_PATH = '/subscription-tiers';

/** 'Upgrade to Pro for videos up to 2GB and 60 minutes': Pro's limits, as the server applies them. */
export function upgradeOfferText(): string {
  const pro = UPLOAD_LIMITS.pro;
  return `Upgrade to Pro for videos up to ${sizeLabel(pro.videoBytes)} and ${pro.videoSeconds / 60} minutes`;
}

/** A Free creator's video refused for its size can be sent once they are Pro; nothing raises Pro's limit. */
export function offersUpgrade(file: FileFacts, tier: UploadTier): boolean {
  return tier === 'free' && file.type.startsWith('video/') && file.size >= videoLimitBytes('free') && file.size < videoLimitBytes('pro');
}
