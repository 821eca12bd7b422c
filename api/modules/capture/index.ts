/** The capture module as others see it: its routes. */
export { default as captureRoutes } from './routes.ts';
