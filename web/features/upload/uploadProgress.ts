/**
 * The progress bar of the upload flow (spec section 4): the user check takes it to 10, the
 * one multipart request's bytes drive it to 80 (the video's bytes to 50, the thumbnail's
 * to 80), and the server's answer, after it has stored the metadata, to 100.
 */
import { UPLOAD_STAGES } from '../../../shared/schemas/studio.ts';

export type UploadStage = keyof typeof UPLOAD_STAGES | 'start';

export const STAGE_LABELS: Record<UploadStage, string> = {
  start: 'Starting upload...',
  ensureUser: 'Checking your account...',
  video: 'Uploading video...',
  thumbnail: 'Uploading thumbnail...',
  metadata: 'Saving video details...',
};

export interface UploadStep {
  percent: number;
  stage: UploadStage;
}

/**
 * Where `loaded` of `total` request bytes puts the bar. The video is the first file part,
 * so the body up to its end is everything but the thumbnail (the small text fields and
 * part headers are counted with the video); the rest is the thumbnail's.
 */
export function progressFromBytes(loaded: number, total: number, thumbnailBytes: number): UploadStep {
  const start = UPLOAD_STAGES.ensureUser;
  if (!(total > 0)) return { percent: start, stage: 'video' };
  if (loaded >= total) return { percent: UPLOAD_STAGES.thumbnail, stage: 'metadata' };
  const videoEnd = Math.max(0, total - Math.max(0, thumbnailBytes));
  if (loaded < videoEnd) {
    const share = Math.max(0, loaded) / videoEnd;
    return { percent: Math.floor(start + (UPLOAD_STAGES.video - start) * share), stage: 'video' };
  }
  const share = (loaded - videoEnd) / (total - videoEnd);
  return { percent: Math.floor(UPLOAD_STAGES.video + (UPLOAD_STAGES.thumbnail - UPLOAD_STAGES.video) * share), stage: 'thumbnail' };
}
