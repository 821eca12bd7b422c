/**
 * Turns the viewer's pending merch (the screenshots gathered on a video page) into a merch
 * product on the server, and answers the product page's address. Used by the categories page
 * and, with the same messages, by the video page's Make Merch.
 */
import type { MerchCategory } from '../../../shared/categories.ts';
import { MAX_SCREENSHOTS } from '../../../shared/constants.ts';
import { createProductRoute, PRODUCT_MESSAGES } from '../../../shared/schemas/products.ts';
import type { BodyOf } from '../../../shared/schemas/route.ts';
import { request as apiRequest } from '../../lib/api.ts';
import { isApiError, isTimeoutError } from '../../lib/ApiError.ts';
import type { PendingMerch } from '../../stores/pendingMerchRecord.ts';

/** Spec section 9: the categories page gives product creation 20 s. */
export const CREATE_PRODUCT_TIMEOUT_MS = 20_000;

export type CreateProductBody = BodyOf<typeof createProductRoute>;

/** The image type of a blob, from its type or, when that is missing, from its first bytes. */
export function imageTypeOf(type: string, head: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  if (type === 'image/jpeg' || type === 'image/png' || type === 'image/webp') return type;
  if (head[0] === 0xff && head[1] === 0xd8) return 'image/jpeg';
  if (head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'image/png';
  if (String.fromCharCode(...head.slice(0, 4)) === 'RIFF' && String.fromCharCode(...head.slice(8, 12)) === 'WEBP') return 'image/webp';
  return null;
}

/** A blob as a data URL, for the request body only (the record keeps blobs). */
export async function blobToDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const type = imageTypeOf(blob.type, bytes.subarray(0, 12));
  if (!type) throw new TypeError('A screenshot is not a JPEG, PNG or WebP image.');
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return `data:${type};base64,${btoa(binary)}`;
}

/**
 * The request body. The video's thumbnail is sent as its address only: the server adds the
 * video's own thumbnail to the product, so the record's copy of it is not sent again.
 */
export async function createProductBody(record: PendingMerch, category: MerchCategory | null, userEmail: string | null): Promise<CreateProductBody> {
  if (!record.videoUrl) throw new TypeError('The pending merch has no video.');
  const captures = record.screenshots.filter((s) => s.source !== 'thumbnail').slice(0, MAX_SCREENSHOTS);
  const screenshots: string[] = [];
  for (const shot of captures) {
    // The full-resolution image only: the store's whenComplete() waits for any still being encoded.
    if (!shot.blob) throw new TypeError('A screenshot is still being prepared.');
    screenshots.push(await blobToDataUrl(shot.blob));
  }
  const first = captures.find((s) => s.timestamp !== null)?.timestamp ?? record.screenshot_timestamp;
  return {
    videoUrl: record.videoUrl,
    thumbnail: record.thumbnail,
    screenshots,
    screenshot_timestamp: first ?? null,
    videoTitle: record.videoTitle,
    creatorName: record.creatorName,
    category,
    isAuthenticated: userEmail !== null,
    userEmail,
  };
}

/**
 * The message for a failed creation (spec section 8): the server's refusal quoted, a server
 * that was not reached (or did not answer in time), or anything else.
 */
export function createProductErrorMessage(error: unknown): string {
  if (isTimeoutError(error)) return `${PRODUCT_MESSAGES.connectFailed}The server did not answer in time.`;
  if (isApiError(error)) {
    if (error.status === 0) return `${PRODUCT_MESSAGES.connectFailed}${error.message}`;
    if (error.code === 'NOT_JSON') return PRODUCT_MESSAGES.createError;
    return `${PRODUCT_MESSAGES.createFailed}${error.serverError ?? 'Unknown error'}`;
  }
  return PRODUCT_MESSAGES.createError;
}

export interface CreateProductOptions {
  userEmail?: string | null;
  signal?: AbortSignal;
  /** The API client; tests pass a fake one. */
  request?: typeof apiRequest;
}

/** Creates the product and answers its page's address; failures are Errors carrying the message to show. */
export async function createProduct(record: PendingMerch, category: MerchCategory | null, options: CreateProductOptions = {}): Promise<string> {
  const { userEmail = null, request = apiRequest } = options;
  const timeout = AbortSignal.timeout(CREATE_PRODUCT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const body = await createProductBody(record, category, userEmail);
    const reply = await request(createProductRoute, { body, signal });
    return reply.product_url;
  } catch (error) {
    // Cancelled by the page itself: not a failure to report.
    if (options.signal?.aborted) throw error;
    // A timeout of the combined signal surfaces as an AbortError from fetch; name it for what it was.
    const cause = timeout.aborted && !isApiError(error) ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : error;
    throw new Error(createProductErrorMessage(cause), { cause: error });
  }
}
