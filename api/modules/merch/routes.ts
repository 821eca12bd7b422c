import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { browseProductsRoute, CREATE_PRODUCT_BODY_LIMIT, createProductRoute, PRODUCT_MESSAGES, productRoute } from '../../../shared/schemas/products.ts';
import { RateLimiter } from '../../platform/http/rate-limit.ts';
import { inLargeBodySlot } from '../../platform/http/body-slots.ts';
import { AppError } from '../../platform/http/errors.ts';
import { catalogueReplies } from './catalogue.ts';
import { createMerchProduct, findMerchProduct } from './service.ts';
import { storedVideoKey } from '../../platform/storage/media-urls.ts';

/** The category a product page lists: the one asked for, 'all' (or null) for every one, else the page's own. */
function categoryListed(asked: string | undefined, own: string | null): string | null {
  if (asked === undefined || asked === '') return own;
  return asked === 'all' ? null : asked;
}

const products: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, storage: app.storage, pending: app.pendingObjects };
  const publicHost = new URL(app.config.publicUrl).host;
  const perUser = new RateLimiter(app.db, 'create-product', 30, 60_000);

  app.route({
    ...createProductRoute,
    bodyLimit: CREATE_PRODUCT_BODY_LIMIT,
    ...inLargeBodySlot(),
    handler: async (request) => {
      const userId = request.user!.id;
      if (!(await perUser.take(userId))) throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many products at once. Please wait a minute.');
      const body = request.body;
      const videoKey = storedVideoKey(body.videoUrl, [publicHost, request.headers.host]);
      if (!videoKey) throw AppError.badRequest(PRODUCT_MESSAGES.unknownVideo);
      const { id } = await createMerchProduct(deps, {
        userId,
        videoKey,
        screenshots: body.screenshots,
        screenshotTimestamp: body.screenshot_timestamp ?? null,
        category: body.category ?? null,
      });
      return { success: true as const, product_id: id, product_url: `/product/${id}` };
    },
  });

  app.route({
    ...browseProductsRoute,
    handler: async (request, reply) => {
      const category = categoryListed(request.query.category, null);
      const list = catalogueReplies(app.catalogue, category);
      void reply.header('cache-control', 'no-cache');
      return { success: true as const, product: null, products: list, category, img_url: null };
    },
  });

  app.route({
    ...productRoute,
    handler: async (request, reply) => {
      const product = await findMerchProduct(deps.db, request.params.productId);
      if (!product) throw new AppError(404, ERROR_CODES.NOT_FOUND, PRODUCT_MESSAGES.productNotFound);
      const category = categoryListed(request.query.category, product.category);
      const list = catalogueReplies(app.catalogue, category);
      void reply.header('cache-control', 'no-cache');
      return { success: true as const, product, products: list, category, img_url: product.screenshots[0] ?? product.thumbnail_url };
    },
  });
};

export default products;

