/**
 * The pending merch record: what a viewer has gathered on a video page (the thumbnail and up to
 * six screenshots) before making merch from it. Pure functions only; the store
 * (pendingMerch.ts) keeps one record and persists it.
 */
import { MAX_SCREENSHOTS } from '../../shared/constants.ts';

export { MAX_SCREENSHOTS };

/** The capture chain's steps, in the order it tries them (the capture feature's `CapturedFrame.source`). */
export type CaptureSource = 'canvas' | 'wasm' | 'server' | 'thumbnail';
/** Where a screenshot came from: a capture step, the video's thumbnail, or a crop of another image. */
export type ScreenshotSource = CaptureSource | 'crop';
const SOURCES: readonly string[] = ['canvas', 'wasm', 'server', 'thumbnail', 'crop'] satisfies ScreenshotSource[];

export interface PendingScreenshot {
  /** Stable within the record: React keys and deletion. */
  id: string;
  /**
   * The image itself at full resolution (JPEG or PNG), never a data URL. Null only in memory,
   * for the moment a capture's full-resolution JPEG is still being encoded (the slot shows the
   * preview meanwhile); such a screenshot is not stored until it has it.
   */
  blob: Blob | null;
  /** A small JPEG of the same picture for its slot; records from before previews have none. */
  preview?: Blob;
  width: number;
  height: number;
  source: ScreenshotSource;
  /** Media time in seconds of the frame; null for the thumbnail. */
  timestamp: number | null;
}

/** What the video page knows about the video the record belongs to. */
export interface PendingVideo {
  videoId: string;
  videoUrl: string | null;
  thumbnail: string | null;
  videoTitle: string;
  creatorName: string;
}

export interface PendingMerch extends PendingVideo {
  screenshots: PendingScreenshot[];
  /** Media time of the newest captured screenshot still in the record; null when there is none. */
  screenshot_timestamp: number | null;
}

/** The version of the stored shape; a stored record of any other version is dropped. */
export const PENDING_MERCH_VERSION = 1;
export type StoredPendingMerch = PendingMerch & { version: typeof PENDING_MERCH_VERSION };

export const MAX_SCREENSHOTS_MESSAGE = `Maximum ${MAX_SCREENSHOTS} screenshots allowed. Please delete some screenshots first.`;

export function emptyRecord(video: PendingVideo): PendingMerch {
  return { ...video, screenshots: [], screenshot_timestamp: null };
}

export const isFull = (record: PendingMerch) => record.screenshots.length >= MAX_SCREENSHOTS;

/** A screenshot whose full-resolution image exists. */
export type CompleteScreenshot = PendingScreenshot & { blob: Blob };
export const isComplete = (shot: PendingScreenshot): shot is CompleteScreenshot => shot.blob !== null;

function latestTimestamp(screenshots: readonly PendingScreenshot[]): number | null {
  for (let i = screenshots.length - 1; i >= 0; i--) {
    const t = screenshots[i]?.timestamp;
    if (t !== null && t !== undefined) return t;
  }
  return null;
}

export type AddResult = { ok: true; record: PendingMerch } | { ok: false; reason: 'full' };

/** Appends a screenshot, unless the record already holds the maximum. */
export function addScreenshot(record: PendingMerch, shot: PendingScreenshot): AddResult {
  if (isFull(record)) return { ok: false, reason: 'full' };
  const screenshots = [...record.screenshots, shot];
  return { ok: true, record: { ...record, screenshots, screenshot_timestamp: shot.timestamp ?? record.screenshot_timestamp } };
}

/**
 * Puts the thumbnail first, where the page seeds it. Only into a record that has none yet and
 * has room: a capture made while the thumbnail was still loading keeps its place after it.
 */
export function seedThumbnail(record: PendingMerch, shot: PendingScreenshot): PendingMerch {
  if (isFull(record) || record.screenshots.some((s) => s.source === 'thumbnail')) return record;
  return { ...record, screenshots: [shot, ...record.screenshots] };
}

/** Gives a screenshot still being encoded its full-resolution image; the same record when it is gone (deleted) or already has one. */
export function completeScreenshot(record: PendingMerch, id: string, blob: Blob): PendingMerch {
  const index = record.screenshots.findIndex((s) => s.id === id);
  const shot = record.screenshots[index];
  if (!shot || shot.blob) return record;
  const screenshots = record.screenshots.with(index, { ...shot, blob });
  return { ...record, screenshots };
}

export function deleteScreenshot(record: PendingMerch, id: string): PendingMerch {
  const screenshots = record.screenshots.filter((s) => s.id !== id);
  if (screenshots.length === record.screenshots.length) return record;
  return { ...record, screenshots, screenshot_timestamp: latestTimestamp(screenshots) };
}

/** The record as stored: only screenshots that have their full-resolution image. */
export function toStored(record: PendingMerch): StoredPendingMerch {
  const screenshots = record.screenshots.filter(isComplete);
  if (screenshots.length === record.screenshots.length) return { ...record, version: PENDING_MERCH_VERSION };
  return { ...record, screenshots, screenshot_timestamp: latestTimestamp(screenshots), version: PENDING_MERCH_VERSION };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isStringOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isPositiveInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isTimestamp = (value: unknown): value is number | null => value === null || (typeof value === 'number' && Number.isFinite(value) && value >= 0);

function parseScreenshot(value: unknown): PendingScreenshot | null {
  if (!isObject(value)) return null;
  const { id, blob, preview, width, height, source, timestamp } = value;
  if (typeof id !== 'string' || id === '' || !(blob instanceof Blob)) return null;
  // Records saved before previews existed have none: the slot shows the full image.
  if (preview !== undefined && !(preview instanceof Blob)) return null;
  if (!isPositiveInt(width) || !isPositiveInt(height) || typeof source !== 'string' || !SOURCES.includes(source) || !isTimestamp(timestamp)) return null;
  const shot: PendingScreenshot = { id, blob, width, height, source: source as ScreenshotSource, timestamp };
  if (preview) shot.preview = preview;
  return shot;
}

/**
 * A stored value as a record, or null when it is not one this version can use: nothing stored,
 * an older shape (e.g. screenshots kept as data URLs, without a version), a newer version, or a
 * damaged record. Such a value is dropped, never half-used.
 */
export function parseStored(value: unknown): PendingMerch | null {
  if (!isObject(value) || value.version !== PENDING_MERCH_VERSION) return null;
  const { videoId, videoUrl, thumbnail, videoTitle, creatorName, screenshots, screenshot_timestamp } = value;
  if (typeof videoId !== 'string' || videoId === '' || !isStringOrNull(videoUrl) || !isStringOrNull(thumbnail)) return null;
  if (typeof videoTitle !== 'string' || typeof creatorName !== 'string' || !isTimestamp(screenshot_timestamp)) return null;
  if (!Array.isArray(screenshots) || screenshots.length > MAX_SCREENSHOTS) return null;
  const parsed = screenshots.map(parseScreenshot);
  if (parsed.some((s) => s === null)) return null;
  const shots = parsed as PendingScreenshot[];
  if (new Set(shots.map((s) => s.id)).size !== shots.length) return null;
  return { videoId, videoUrl, thumbnail, videoTitle, creatorName, screenshots: shots, screenshot_timestamp };
}
