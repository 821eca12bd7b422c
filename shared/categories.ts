/**
 * Video categories. The feed filters by them and the video page URL carries the id
 * (/video/{categoryId}/{videoId}); 0 means "no category" and is always accepted.
 */
export const VIDEO_CATEGORIES = [
  { id: 1, slug: 'gaming', name: 'Gaming' },
  { id: 2, slug: 'music', name: 'Music' },
  { id: 3, slug: 'comedy', name: 'Comedy' },
  { id: 4, slug: 'sports', name: 'Sports' },
  { id: 5, slug: 'travel', name: 'Travel' },
  { id: 6, slug: 'education', name: 'Education' },
  { id: 7, slug: 'animals', name: 'Animals' },
  { id: 8, slug: 'film', name: 'Film & Animation' },
  { id: 9, slug: 'tech', name: 'Science & Tech' },
  { id: 10, slug: 'food', name: 'Food' },
] as const;

export type VideoCategory = (typeof VIDEO_CATEGORIES)[number];
export type VideoCategorySlug = VideoCategory['slug'];
export const VIDEO_CATEGORY_SLUGS = VIDEO_CATEGORIES.map((c) => c.slug) as VideoCategorySlug[];

export function videoCategoryBySlug(slug: string): VideoCategory | undefined {
  return VIDEO_CATEGORIES.find((c) => c.slug === slug);
}

/** The ten merchandise categories of the shop, in the order the categories page lists them. */
export const MERCH_CATEGORIES = [
  'womens',
  'mens',
  'kids',
  'mugs',
  'hats',
  'bags',
  'pets',
  'stickers',
  'misc',
  'thumbnails',
] as const;
export type MerchCategory = (typeof MERCH_CATEGORIES)[number];

export function isMerchCategory(value: string): value is MerchCategory {
  return (MERCH_CATEGORIES as readonly string[]).includes(value);
}
