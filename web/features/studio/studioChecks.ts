import { UPLOAD_LIMITS, UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';

/** Spec section 5, "Profile image": an image under 5 MB. Returns the message to show, or null. */
export function checkProfileImage(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return UPLOAD_MESSAGES.profileNotImage;
  if (file.size >= UPLOAD_LIMITS.profileImageBytes) return UPLOAD_MESSAGES.profileTooLarge;
  return null;
}

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending review',
  approved: 'Approved',
  rejected: 'Rejected',
  // What new uploads get (spec section 4); they are visible at once.
  verified_via_supabase_auth: 'Published',
};

/** A video's verification_status in words; unknown values are shown as they are, underscores spaced. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.replaceAll('_', ' ');
}
