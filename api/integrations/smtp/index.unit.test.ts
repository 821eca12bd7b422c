import { describe, expect, it } from 'vitest';
import { openMailTransport } from './index.ts';

describe('openMailTransport', () => {
  it('hands mail to the SMTP server when SMTP_URL is set', () => {
    expect(openMailTransport({ smtpUrl: 'smtp://mail.example.com:587' }).kind).toBe('smtp');
  });
  it('keeps mail in the outbox otherwise', () => {
    expect(openMailTransport({ smtpUrl: null }).kind).toBe('outbox');
  });
});
