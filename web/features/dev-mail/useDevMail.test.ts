import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import type { MailMessage } from '../../../shared/schemas/mail.ts';
import { messageLinkOf, newestFirst, outboxRefusal } from './useDevMail.ts';

const message = (id: string, created_at: string): MailMessage => ({
  id,
  to: 'fan@example.com',
  subject: 's',
  text: 't',
  status: 'sent',
  created_at,
  sent_at: null,
  link: `/dev/mail?message=${id}&token=t`,
});

describe('newestFirst', () => {
  it('orders by creation time, newest first, without touching the input', () => {
    const input = [message('a', '2025-01-01T10:00:00Z'), message('c', '2025-03-01T10:00:00Z'), message('b', '2025-02-01T10:00:00Z')];
    expect(newestFirst(input).map((m) => m.id)).toEqual(['c', 'b', 'a']);
    expect(input.map((m) => m.id)).toEqual(['a', 'c', 'b']);
  });
});

describe('messageLinkOf', () => {
  it("reads a message's own link, and nothing from the outbox's address", () => {
    expect(messageLinkOf(new URLSearchParams('message=m1&token=abc'))).toEqual({ id: 'm1', token: 'abc' });
    expect(messageLinkOf(new URLSearchParams('message=m1'))).toEqual({ id: 'm1', token: '' });
    expect(messageLinkOf(new URLSearchParams(''))).toBeNull();
  });
});

describe('outboxRefusal', () => {
  it('asks for the outbox for admins only, and says why to everyone else', () => {
    expect(outboxRefusal('loading', null)).toEqual({ status: 'loading' });
    expect(outboxRefusal('signed-out', null)).toEqual({ status: 'denied', message: AUTH_MESSAGES.signInRequired });
    expect(outboxRefusal('signed-in', { is_admin: false })).toEqual({ status: 'denied', message: AUTH_MESSAGES.adminRequired });
    expect(outboxRefusal('signed-in', { is_admin: true })).toBeNull();
  });
});
