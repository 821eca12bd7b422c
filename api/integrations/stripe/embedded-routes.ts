/**
 * The embedded payment provider's hosted page (/pay/:sessionId): the page itself, its form
 * post, and its stylesheet. Served by the API in every mode, so the built app's SPA fallback
 * never answers these paths. Form bodies are parsed here only (this plugin is encapsulated).
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { embeddedPaymentPageRoute, embeddedPaymentSubmitRoute } from '../../../shared/schemas/checkout.ts';
import { ADDRESS_FIELD_MAX } from './embedded.ts';
import { expiredPage, notFoundPage, paidPage, PAY_STYLESHEET, PAY_STYLESHEET_PATH, payPage, type PayFormState } from './pay-page.ts';

const SESSION_ID = /^cs_[A-Za-z0-9_]{10,80}$/;
const cut = (value: string) => value.slice(0, ADDRESS_FIELD_MAX);

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(body);

const embeddedPay: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  const payments = app.embeddedPayments;

  app.get(PAY_STYLESHEET_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/css; charset=utf-8').send(PAY_STYLESHEET),
  );

  app.route({
    ...embeddedPaymentPageRoute,
    handler: async (request, reply) => {
      const id = request.params.sessionId;
      const session = SESSION_ID.test(id) ? await payments.findSession(id) : null;
      if (!session) return html(reply, 404, notFoundPage());
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
};

export default embeddedPay;
