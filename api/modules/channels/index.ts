/** The channels module as others see it: its routes. */
export { default as channelRoutes } from './routes.ts';
