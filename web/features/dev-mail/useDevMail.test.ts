import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../../shared/schemas/auth.ts';
import { newestFirst } from './useDevMail.ts';

const message = (id: string, created_at: string): MailMessage => ({
  id,
  to: 'fan@example.com',
  subject: 's',
  text: 't',
  status: 'sent',
  created_at,
  sent_at: null,
});

describe('newestFirst', () => {
  it('orders by creation time, newest first, without touching the input', () => {
    const input = [message('a', '2025-01-01T10:00:00Z'), message('c', '2025-03-01T10:00:00Z'), message('b', '2025-02-01T10:00:00Z')];
    expect(newestFirst(input).map((m) => m.id)).toEqual(['c', 'b', 'a']);
    expect(input.map((m) => m.id)).toEqual(['a', 'c', 'b']);
  });
});
