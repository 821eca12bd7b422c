/**
 * The development mailbox (/dev/mail): the outbox for admins, and one message through its own
 * secret link for the person it was written to.
 */
import { Type, type Static } from 'typebox';
import { errorReplies, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

export const MAIL_MESSAGES = {
  messageNotFound: 'This message was not found. Check that the link is complete.',
} as const;

export const MailMessage = Type.Object({
  id: Uuid,
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  status: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  sent_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The message's own page, /dev/mail?message={id}&token={token}: whoever holds it reads this message only. */
  link: Type.String(),
});
export type MailMessage = Static<typeof MailMessage>;

export const devMailRoute = defineRoute({
  method: 'GET',
  url: '/api/dev/mail',
  access: 'admin',
  schema: {
    summary: 'The outbox, newest first: every message with its recipient, text and secret link (admins only)',
    tags: ['mail'],
    response: { 200: Type.Object({ success: Type.Literal(true), messages: Type.Array(MailMessage) }), ...errorReplies(401, 403) },
  },
});

export const devMailMessageRoute = defineRoute({
  method: 'GET',
  url: '/api/dev/mail/:id',
  access: 'public',
  schema: {
    summary: "One message of the outbox, through its secret link's token; any other token answers 404",
    tags: ['mail'],
    params: Type.Object({ id: Uuid }, { additionalProperties: false }),
    querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true), message: MailMessage }), ...errorReplies(400, 404) },
  },
});
