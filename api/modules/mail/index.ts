/** Mail a visitor asks for (welcome, subscription approval) and the development mailbox. */
export { default as mailRoutes } from './routes.ts';
