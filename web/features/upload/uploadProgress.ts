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

/**
 * The resumable path's bar: the video goes up with tus, then the thumbnail with the finish
 * request, so `sent` counts both files' bytes in that order. They move the bar from the user
 * check's 10 to 80 in proportion (a 150 MB video's bytes are all but the whole), and the
 * server's answer takes it to 100.
 */
export function progressFromResumableBytes(sent: number, videoBytes: number, thumbnailBytes: number): UploadStep {
  const start = UPLOAD_STAGES.ensureUser;
  const end = UPLOAD_STAGES.thumbnail;
  const total = Math.max(0, videoBytes) + Math.max(0, thumbnailBytes);
  if (!(total > 0)) return { percent: start, stage: 'video' };
  const done = Math.min(Math.max(0, sent), total);
  if (done >= total) return { percent: end, stage: 'metadata' };
  const percent = Math.floor(start + ((end - start) * done) / total);
  return { percent, stage: done < videoBytes ? 'video' : 'thumbnail' };
}

/** 'Uploaded 45.2 MB of 150.1 MB', both in the same unit so the two read side by side. */
export function bytesProgressText(sent: number, total: number): string {
  const MB = 1024 * 1024;
  const GB = 1024 * MB;
  const unit = total >= GB ? { size: GB, name: 'GB', digits: 2 } : { size: MB, name: 'MB', digits: 1 };
  const show = (bytes: number) => (Math.max(0, bytes) / unit.size).toFixed(unit.digits);
  return `Uploaded ${show(Math.min(sent, total))} ${unit.name} of ${show(total)} ${unit.name}`;
}
