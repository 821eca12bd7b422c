/** Spec section 8 texts of the video page's screenshots. */
export { MAX_SCREENSHOTS_MESSAGE } from '../../stores/pendingMerchRecord.ts';
export const CAPTURE_FAILED_MESSAGE = 'Failed to capture screenshot. Please try again.';
export const VIDEO_URL_MISSING_MESSAGE = 'Video URL not available. Please try again.';
