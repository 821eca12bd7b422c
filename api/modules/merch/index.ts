/**
 * Merch: the catalogue, merch products (a video's captured frames for sale) and print files,
 * made by the one print pipeline the buyer's preview is made with.
 */
export { default as catalogueRoutes } from './catalogue.routes.ts';
export { default as printRoutes } from './print.routes.ts';
export { default as productRoutes } from './routes.ts';
export { readCatalogue, catalogueReplies } from './catalogue.ts';
export { syncCatalogue } from './repository.ts';
export { ensurePrintFiles, type PrintFileDeps, type PrintedItem } from './print-files.ts';
export { renderPrintFile } from './print-render.ts';
