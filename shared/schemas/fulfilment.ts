/**
 * Fulfilment: the print-on-demand provider's progress reports (Printful's webhooks) and the
 * tracking page of the embedded print shop's parcels.
 */
import { Type } from 'typebox';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

export const FULFILMENT_MESSAGES = {
  unknownWebhook: 'Not found.',
  unknownParcel: 'No parcel has this tracking number.',
  tooManyLookups: 'Too many tracking lookups from your address. Please wait a few minutes and try again.',
} as const;

/** Tracking numbers of the embedded print shop's parcels. */
export const TRACKING_NUMBER_PATTERN = '^FM[0-9]{12}$';

const Id = Type.Union([Type.Integer(), Type.String({ maxLength: 100 })]);
const Text = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

/** The part of a Printful webhook the shop reads; everything else Printful sends is kept out. */
export const PrintfulWebhookBody = Type.Object({
  type: Type.String({ minLength: 1, maxLength: 100 }),
  data: Type.Optional(
    Type.Object({
      order: Type.Optional(Type.Object({ id: Type.Optional(Id), external_id: Type.Optional(Text(100)), status: Type.Optional(Text(40)) })),
      shipment: Type.Optional(
        Type.Object({
          id: Type.Optional(Id),
          tracking_number: Type.Optional(Text(100)),
          tracking_url: Type.Optional(Text(2000)),
          carrier: Type.Optional(Text(100)),
        }),
      ),
    }),
  ),
});

export const printfulWebhookRoute = defineRoute({
  method: 'POST',
  url: '/api/webhooks/printful',
  access: 'public',
  schema: {
    summary:
      "Printful's order and shipment reports. Printful signs nothing, so the URL carries a secret token (PRINTFUL_WEBHOOK_TOKEN); without the right token nothing happens",
    tags: ['checkout'],
    querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }),
    body: PrintfulWebhookBody,
    response: {
      200: Type.Object({ success: Type.Literal(true), duplicate: Type.Boolean(), status: Type.Union([Type.String(), Type.Null()]) }),
      ...errorReplies(400, 404),
    },
  },
});

export const trackingPageRoute = defineRoute({
  method: 'GET',
  url: '/track/:number',
  access: 'public',
  schema: {
    summary: "The tracking page of a parcel from the embedded print shop (an HTML page: where the parcel is)",
    tags: ['checkout'],
    params: Type.Object({ number: Type.String({ maxLength: 40 }) }, { additionalProperties: false }),
    response: { 200: Type.String({ description: 'text/html' }), ...errorReplies(404, 429) },
  },
});
