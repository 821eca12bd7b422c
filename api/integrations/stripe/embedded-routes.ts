/**
 * The embedded payment provider's hosted page (/pay/:sessionId): the page itself, its form
 * post, and its stylesheet; a session in subscription mode is shown and taken on the same page.
 * And the subscriber's manage page (/pay/manage/:token, the customer portal's stand-in).
 * Served by the API in every mode, so the built app's SPA fallback never answers these paths.
 * Form bodies are parsed here only (this plugin is encapsulated).
 *
 * The subscription forms change what later charges do, so besides the capability in their path
 * (the session id, the manage token) they must come from this site's own page (Origin, else
 * Sec-Fetch-Site, else Referer), as the API's state-changing routes must.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { embeddedPaymentPageRoute, embeddedPaymentSubmitRoute } from '../../../shared/schemas/checkout.ts';
import { EMBEDDED_MANAGE_PATH, embeddedManagePageRoute, embeddedManageSubmitRoute } from '../../../shared/schemas/subscriptions.ts';
import { fromThisSite } from '../../platform/http/auth.ts';
import type { ManageAction } from './embedded-billing.ts';
import { ADDRESS_FIELD_MAX } from './embedded.ts';
import { expiredPage, notFoundPage, paidPage, PAY_STYLESHEET, PAY_STYLESHEET_PATH, payPage, type PayFormState } from './pay-page.ts';
import { crossSitePage, manageNotFoundPage, managePage, subscribedPage, subscribePage, subscriptionExpiredPage, type ManageNotice } from './subscription-pages.ts';

const MANAGE_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;
const NOTICES = new Set<string>(['cancel', 'resume', 'card']);

const SESSION_ID = /^cs_[A-Za-z0-9_]{10,80}$/;
const cut = (value: string) => value.slice(0, ADDRESS_FIELD_MAX);

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(body);

const embeddedPay: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  const payments = app.embeddedPayments;
  const billing = payments.billing;
  const publicOrigin = new URL(app.config.publicUrl).origin;
  const fromHere = (request: FastifyRequest) => fromThisSite(request, publicOrigin);

  app.get(PAY_STYLESHEET_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/css; charset=utf-8').send(PAY_STYLESHEET),
  );

  app.route({
    ...embeddedPaymentPageRoute,
    handler: async (request, reply) => {
      const id = request.params.sessionId;
      const session = SESSION_ID.test(id) ? await payments.findSession(id) : null;
      if (!session) {
        const sub = SESSION_ID.test(id) ? await billing.findSubscriptionSession(id) : undefined;
        if (!sub) return html(reply, 404, notFoundPage());
        if (sub.status === 'complete') return html(reply, 200, subscribedPage(sub));
        if (sub.status === 'expired' || sub.expires_at.getTime() <= Date.now()) return html(reply, 200, subscriptionExpiredPage(sub));
        return html(reply, 200, subscribePage(sub, { email: sub.customer_email ?? '', expiry: '' }, app.clock.now()));
      }
      if (session.status === 'complete') return html(reply, 200, paidPage(session));
      if (session.status === 'expired' || session.expires_at.getTime() <= Date.now()) return html(reply, 200, expiredPage(session));
      return html(reply, 200, payPage(session, { email: session.customer_email ?? '', expiry: '' }));
    },
  });

  app.route({
    ...embeddedPaymentSubmitRoute,
    attachValidation: true,
    handler: async (request, reply) => {
      const id = request.params.sessionId;
      if (!SESSION_ID.test(id)) return html(reply, 404, notFoundPage());
      type Field = 'email' | 'card_number' | 'expiry' | 'cvc' | 'name' | 'address_line1' | 'address_line2' | 'city' | 'state' | 'postal_code';
      const body = (request.validationError ? {} : (request.body ?? {})) as Partial<Record<Field, string>>;
      const shipping = {
        name: body.name ?? '',
        line1: body.address_line1 ?? '',
        line2: body.address_line2 ?? '',
        city: body.city ?? '',
        state: body.state ?? '',
        postalCode: body.postal_code ?? '',
      };
      const input = { email: body.email ?? '', cardNumber: body.card_number ?? '', expiry: body.expiry ?? '', cvc: body.cvc ?? '', shipping };
      const sub = await billing.findSubscriptionSession(id);
      if (sub) {
        if (!fromHere(request)) return html(reply, 403, crossSitePage());
        const done = await billing.subscribe(id, input);
        const kept = { email: input.email.slice(0, 320), expiry: input.expiry.slice(0, 9) };
        switch (done.kind) {
          case 'not_found':
            return html(reply, 404, notFoundPage());
          case 'subscribed':
          case 'already_complete':
            return reply.header('cache-control', 'no-store').redirect(done.session.success_url, 303);
          case 'expired':
            return html(reply, 409, subscriptionExpiredPage(done.session));
          case 'declined':
            return html(reply, 402, subscribePage(done.session, kept, app.clock.now(), done.message));
          case 'invalid':
            return html(reply, 400, subscribePage(done.session, kept, app.clock.now(), done.message));
        }
      }
      const outcome = await payments.pay(id, input);
      // What the buyer typed comes back on the page (never the card number or CVC), cut to the fields' sizes.
      const keep: PayFormState = {
        email: input.email.slice(0, 320),
        expiry: input.expiry.slice(0, 9),
        shipping: {
          name: cut(shipping.name),
          line1: cut(shipping.line1),
          line2: cut(shipping.line2),
          city: cut(shipping.city),
          state: cut(shipping.state),
          postalCode: cut(shipping.postalCode),
        },
      };
      switch (outcome.kind) {
        case 'not_found':
          return html(reply, 404, notFoundPage());
        case 'paid':
        case 'already_paid':
          // A second press of Pay after the first went through lands on the same confirmation.
          return reply.header('cache-control', 'no-store').redirect(outcome.session.success_url, 303);
        case 'expired':
          return html(reply, 409, expiredPage(outcome.session));
        case 'declined':
          return html(reply, 402, payPage(outcome.session, keep, outcome.message));
        case 'invalid':
          return html(reply, 400, payPage(outcome.session, keep, outcome.message));
      }
    },
  });

  app.route({
    ...embeddedManagePageRoute,
    handler: async (request, reply) => {
      const token = request.params.token;
      const view = MANAGE_TOKEN.test(token) ? await billing.manageView(token) : null;
      if (!view) return html(reply, 404, manageNotFoundPage());
      const done = request.query.done;
      const notice = done && NOTICES.has(done) ? (done as ManageNotice) : null;
      return html(reply, 200, managePage(view, `${EMBEDDED_MANAGE_PATH}/${token}`, { notice }));
    },
  });

  app.route({
    ...embeddedManageSubmitRoute,
    attachValidation: true,
    handler: async (request, reply) => {
      const token = request.params.token;
      if (!MANAGE_TOKEN.test(token)) return html(reply, 404, manageNotFoundPage());
      if (!fromHere(request)) return html(reply, 403, crossSitePage());
      const body = (request.validationError ? {} : (request.body ?? {})) as Partial<Record<'action' | 'card_number' | 'expiry' | 'cvc', string>>;
      const page = `${EMBEDDED_MANAGE_PATH}/${token}`;
      let action: ManageAction | null = null;
      if (body.action === 'cancel' || body.action === 'resume') action = { kind: body.action };
      else if (body.action === 'card') action = { kind: 'card', card: { cardNumber: body.card_number ?? '', expiry: body.expiry ?? '', cvc: body.cvc ?? '' } };
      if (!action) {
        const view = await billing.manageView(token);
        return view ? html(reply, 400, managePage(view, page, { error: 'Choose what to change.' })) : html(reply, 404, manageNotFoundPage());
      }
      const outcome = await billing.manage(token, action);
      if (outcome.kind === 'not_found') return html(reply, 404, manageNotFoundPage());
      if (outcome.kind === 'refused') {
        const view = await billing.manageView(token);
        if (!view) return html(reply, 404, manageNotFoundPage());
        return html(reply, outcome.status, managePage(view, page, { error: outcome.message, expiry: (body.expiry ?? '').slice(0, 9) }));
      }
      return reply.header('cache-control', 'no-store').redirect(`${page}?done=${action.kind}`, 303);
    },
  });
};

export default embeddedPay;
