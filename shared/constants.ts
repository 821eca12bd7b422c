/** Business constants from the product specification, section 9. */

export const MAX_SCREENSHOTS = 6;
export const CANVAS_JPEG_QUALITY = 0.9;
export const SERVER_CAPTURE_QUALITY = 85;
/** Client wait for the server capture, in ms. */
export const SERVER_CAPTURE_TIMEOUT_MS = 30_000;

/** Crop box, in image pixels: minimum side, default box, and the first box of the print crop tool. */
export const CROP_MIN_PX = 50;
export const CROP_DEFAULT_PX = 200;
export const CROP_INITIAL_MAX_PX = 300;
export const CROP_INITIAL_FRACTION = 0.8;
export const FEATHER_RADIUS_PX = 12;

/** The revenue split: the creator's percentage of an item's margin (the house keeps the rest); the one place it is written. */
export const CREATOR_SHARE_PERCENT = 70;

export const SIDEBAR_CREATOR_COUNT = 10;
export const FEED_PAGE_SIZE = 20;
export const FEED_PAGE_MAX = 100;

export const MOBILE_BREAKPOINT_PX = 768;
export const SHOP_MOBILE_BREAKPOINT_PX = 900;

export const CHECKOUT_COUNTRIES = ['US', 'CA', 'GB', 'AU', 'DE'] as const;
export type CheckoutCountry = (typeof CHECKOUT_COUNTRIES)[number];

export const STORAGE_BUCKETS = ['videos', 'thumbnails', 'profile-images', 'screenshots', 'prints'] as const;
export type StorageBucket = (typeof STORAGE_BUCKETS)[number];

export const CONTACT_EMAIL = 'support@framemerch.example';
export const FOOTER_YEAR = 2025;
