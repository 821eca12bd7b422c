/**
 * POST /api/webhooks/paypal-payouts and /api/webhooks/stripe-connect: payout outcomes from PayPal
 * and Stripe, or from the embedded payout provider in the same formats. The signature covers
 * the exact bytes sent, so this plugin (encapsulated: the rest of the API still parses JSON as
 * usual) keeps JSON bodies as raw buffers, has them verified and read by the payout providers
 * (app.payoutProviders.webhooks), and hands the PayoutEvent to applyPayoutEvent, which moves a
 * payout once: a repeated event changes nothing. A refused event (bad signature, not the
 * provider's format) answers 400 and changes nothing; PayPal's own check unreachable answers
 * 503, so PayPal sends the event again later.
 *
 * Until the composition root registers the payout providers itself, this plugin does (for its
 * own routes and the embedded provider's clock and onboarding page).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { paypalPayoutsWebhookRoute, stripeConnectWebhookRoute } from '../../../shared/schemas/payouts.ts';
import {
  payoutProvidersPlugin,
  PayoutProviderError,
  PayoutWebhookError,
  type ConnectAccountUpdate,
  type PayoutEvent,
} from '../../integrations/payouts/index.ts';
import { AppError } from '../../platform/http/errors.ts';
import { applyPayoutEvent } from './run.ts';

/** PayPal's and Stripe's events are a few kilobytes. */
export const PAYOUT_WEBHOOK_BODY_LIMIT = 256 * 1024;

export interface PayoutWebhookRoutesOptions {
  /**
   * Applies a Connect account's new status to its creator (users.stripe_connect_status). Without
   * it, account.updated is answered 503 and nothing is lost: Stripe (and the embedded provider)
   * send it again later.
   */
  applyConnectAccountUpdate?: (update: ConnectAccountUpdate) => Promise<boolean>;
}

function parsesAsJson(raw: Buffer): boolean {
  try {
    JSON.parse(raw.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The refusal of a webhook, as the client sees it; the reason goes to the log only. */
function refusal(err: unknown, raw: Buffer, log: FastifyBaseLogger, what: string): AppError {
  if (err instanceof PayoutProviderError) {
    log.warn({ reason: err.message }, `${what} could not be verified now`);
    return new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, 'The event could not be verified just now; send it again later.');
  }
  if (!(err instanceof PayoutWebhookError)) throw err;
  log.warn({ reason: err.message }, `${what} refused`);
  if (err.reason === 'malformed' || !parsesAsJson(raw)) return new AppError(400, ERROR_CODES.MALFORMED_REQUEST, 'The request body is not a payout event.');
  return new AppError(400, ERROR_CODES.INVALID_SIGNATURE, 'The event signature could not be verified.');
}

const payoutWebhooks: FastifyPluginAsyncTypebox<PayoutWebhookRoutesOptions> = async (app, opts) => {
  const deps = { db: app.db, publicUrl: app.config.publicUrl };
  const apply = (event: PayoutEvent, log: FastifyBaseLogger) => applyPayoutEvent({ ...deps, log: (line) => log.info(line) }, event);
  if (!app.hasDecorator('payoutProviders')) {
    await app.register(payoutProvidersPlugin, { applyAchEvent: (event) => apply(event, app.log) });
  }

  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: PAYOUT_WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  const rawBodyOf = (body: unknown): Buffer => {
    if (!Buffer.isBuffer(body)) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'Payout events must be sent as application/json.');
    return body;
  };

  app.route({
    ...paypalPayoutsWebhookRoute,
    bodyLimit: PAYOUT_WEBHOOK_BODY_LIMIT,
    handler: async (request) => {
      const raw = rawBodyOf(request.body);
      let event: PayoutEvent | null;
      try {
        event = await app.payoutProviders.webhooks.paypal(raw, request.headers);
      } catch (err) {
        throw refusal(err, raw, request.log, 'PayPal payout event');
      }
      if (!event) return { received: true as const, applied: false };
      const outcome = await apply(event, request.log);
      request.log.info({ eventId: event.eventId, status: event.status, outcome: outcome.outcome }, 'PayPal payout event');
      return { received: true as const, applied: outcome.outcome === 'applied' };
    },
  });

  app.route({
    ...stripeConnectWebhookRoute,
    bodyLimit: PAYOUT_WEBHOOK_BODY_LIMIT,
    handler: async (request) => {
      const raw = rawBodyOf(request.body);
      const header = request.headers['stripe-signature'];
      let outcome;
      try {
        outcome = app.payoutProviders.webhooks.stripeConnect(raw, typeof header === 'string' ? header : undefined);
      } catch (err) {
        throw refusal(err, raw, request.log, 'Stripe Connect event');
      }
      switch (outcome.kind) {
        case 'ignored':
          return { received: true as const, applied: false };
        case 'payout': {
          const applied = await apply(outcome.event, request.log);
          request.log.info({ eventId: outcome.event.eventId, status: outcome.event.status, outcome: applied.outcome }, 'Stripe Connect payout event');
          return { received: true as const, applied: applied.outcome === 'applied' };
        }
        case 'account': {
          if (!opts.applyConnectAccountUpdate) {
            request.log.warn({ eventId: outcome.update.eventId }, 'a Stripe Connect account update has nowhere to go yet');
            throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, 'Connect account updates are not taken yet; send it again later.');
          }
          const applied = await opts.applyConnectAccountUpdate(outcome.update);
          request.log.info({ eventId: outcome.update.eventId, status: outcome.update.status, applied }, 'Stripe Connect account event');
          return { received: true as const, applied };
        }
      }
    },
  });
};

export default payoutWebhooks;
