/** The videos module as others see it: its routes, the one video lookup, views and cards. */
export { default as videoRoutes } from './routes.ts';
export { findVisibleVideo, listChannelVideos, recordView } from './service.ts';
export type { FeedRow, VideoRow } from './service.ts';
export { toCard } from './feed.ts';
