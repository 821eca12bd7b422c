/** Merch products: a video's captured frames kept on the server, and the page that sells them. */
import { Type, type Static } from 'typebox';
import { MERCH_CATEGORIES } from '../categories.ts';
import { MAX_SCREENSHOTS } from '../constants.ts';
import { CatalogueProductReply } from './catalogue.ts';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

/**
 * One screenshot of at most this many bytes once decoded from its data URL. Captured frames are
 * kept as lossless PNGs: 2 to 3.4 MB for a 1080p frame, 8 to 13 MB for a 4K one with camera noise.
 */
export const MAX_SCREENSHOT_BYTES = 16 * 1024 * 1024;
/** Base64 takes 4 characters per 3 bytes, plus the data URL's header. */
const dataUrlLength = (bytes: number) => Math.ceil((bytes * 4) / 3) + 64;
const MAX_SCREENSHOT_DATA_URL = dataUrlLength(MAX_SCREENSHOT_BYTES);
/**
 * The whole create-product body: six screenshots of 8 MB (six 1080p PNGs several times over, or
 * one 4K PNG at the limit with smaller ones), and the text fields. Larger bodies are refused (413)
 * before they are read.
 */
export const CREATE_PRODUCT_BODY_LIMIT = MAX_SCREENSHOTS * dataUrlLength(8 * 1024 * 1024) + 64 * 1024;

export const PRODUCT_MESSAGES = {
  tooManyScreenshots: `At most ${MAX_SCREENSHOTS} screenshots can be used for one product.`,
  notAnImage: 'Every screenshot must be a JPEG, PNG or WebP image.',
  tooLarge: 'A screenshot is too large.',
  unknownVideo: 'Only videos on this site can be made into merch.',
  videoNotFound: 'Video not found.',
  productNotFound: 'Product Not Found',
  createFailed: 'Failed to create merch product page: ',
  connectFailed: 'Error connecting to merch server: ',
  createError: 'Error creating product. Please try again.',
} as const;

const ScreenshotDataUrl = Type.String({ maxLength: MAX_SCREENSHOT_DATA_URL, pattern: '^data:image/(png|jpeg|webp);base64,' });

export const createProductRoute = defineRoute({
  method: 'POST',
  url: '/api/create-product',
  access: 'user',
  schema: {
    summary:
      "Keeps a video's captured frames as a merch product. The video decides the creator; the names sent are display hints only, and the session decides who made it.",
    tags: ['shop'],
    body: Type.Object(
      {
        videoUrl: Type.String({ minLength: 1, maxLength: 500 }),
        /** The video's thumbnail as the page showed it; the server uses the video's own. */
        thumbnail: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
        screenshots: Type.Array(ScreenshotDataUrl, { maxItems: MAX_SCREENSHOTS }),
        /** Media time of the first capture, in seconds. */
        screenshot_timestamp: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 36_000 }), Type.Null()])),
        videoTitle: Type.Optional(Type.String({ maxLength: 500 })),
        creatorName: Type.Optional(Type.String({ maxLength: 500 })),
        category: Type.Optional(Type.Union([Type.Enum([...MERCH_CATEGORIES]), Type.Null()])),
        /** Sent by the video page; the server believes only its session. */
        isAuthenticated: Type.Optional(Type.Boolean()),
        userEmail: Type.Optional(Type.Union([Type.String({ maxLength: 320 }), Type.Null()])),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), product_id: Type.String(), product_url: Type.String() }),
      ...errorReplies(400, 401, 404, 413, 415, 429),
    },
  },
});

export const MerchProductReply = Type.Object({
  id: Type.String(),
  video_id: Type.Union([Type.String(), Type.Null()]),
  video_url: Type.Union([Type.String(), Type.Null()]),
  video_title: Type.String(),
  creator_name: Type.String(),
  category: Type.Union([Type.String(), Type.Null()]),
  thumbnail_url: Type.Union([Type.String(), Type.Null()]),
  /** The captured frames in order, the thumbnail not repeated. */
  screenshots: Type.Array(Type.String()),
  screenshot_sizes: Type.Array(Type.Object({ width: Type.Integer(), height: Type.Integer() })),
  thumbnail_size: Type.Union([Type.Object({ width: Type.Integer(), height: Type.Integer() }), Type.Null()]),
  screenshot_timestamp: Type.Union([Type.Number(), Type.Null()]),
  created_at: Type.String(),
});
export type MerchProductReply = Static<typeof MerchProductReply>;

/**
 * The product page's query, the same for both of its addresses: the category to list ('all' or
 * empty for every one; an unknown name is refused with 400), and the page's hints `authenticated`
 * and `email`, which are not trusted. Cache-busting parameters are allowed and ignored.
 */
const ProductPageQuery = Type.Object(
  {
    category: Type.Optional(Type.Union([Type.Enum([...MERCH_CATEGORIES]), Type.Literal('all'), Type.Literal('')])),
    authenticated: Type.Optional(Type.String({ maxLength: 10 })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
  },
  { additionalProperties: true },
);

export const productRoute = defineRoute({
  method: 'GET',
  url: '/api/product/:productId',
  access: 'public',
  schema: {
    summary:
      'A merch product with its screenshots, and the catalogue products it can be printed on: those of `category`, else of the category the product was made in (every product when it has none).',
    tags: ['shop'],
    params: Type.Object({ productId: Type.String({ format: 'uuid' }) }),
    querystring: ProductPageQuery,
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        product: MerchProductReply,
        products: Type.Array(CatalogueProductReply),
        category: Type.Union([Type.String(), Type.Null()]),
        img_url: Type.Union([Type.String(), Type.Null()]),
      }),
      ...errorReplies(400, 404),
    },
  },
});

export const browseProductsRoute = defineRoute({
  method: 'GET',
  url: '/api/product/browse',
  access: 'public',
  schema: {
    summary:
      "The catalogue products of a category, for browsing before any screenshot exists. `authenticated` and `email` are the page's hints and are not trusted.",
    tags: ['shop'],
    querystring: ProductPageQuery,
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        product: Type.Null(),
        products: Type.Array(CatalogueProductReply),
        category: Type.Union([Type.String(), Type.Null()]),
        img_url: Type.Null(),
      }),
      ...errorReplies(400),
    },
  },
});
