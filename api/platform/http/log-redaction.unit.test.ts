import { describe, expect, it } from 'vitest';
import { redactUrl, requestLogFields } from './log-redaction.ts';

describe('redactUrl', () => {
  it('hides tokens, sign-in codes, session ids and addresses, and keeps the rest readable', () => {
    const cases: [string, string][] = [
      ['/orders/6f1c?token=s3cr3tT0ken', '/orders/6f1c?token=[redacted]'],
      ['/api/orders/6f1c?token=s3cr3tT0ken&x=1', '/api/orders/6f1c?token=[redacted]&x=1'],
      ['/dev/mail?message=6f1c&token=abc', '/dev/mail?message=6f1c&token=[redacted]'],
      ['/approve-subscription?email=fan%40example.com&token=abc', '/approve-subscription?email=[redacted]&token=[redacted]'],
      ['/api/auth/google/callback?code=c0de&state=st4te&iss=x', '/api/auth/google/callback?code=[redacted]&state=[redacted]&iss=x'],
      ['/success?session_id=cs_test_abc123', '/success?session_id=[redacted]'],
      ['/pay/cs_test_abc123', '/pay/cs_[redacted]'],
      ['/api/checkout/sessions/cs_test_abc123', '/api/checkout/sessions/cs_[redacted]'],
      ['/search?q=someone%40example.com', '/search?q=[redacted]'],
      ['/api/x?Access_Token=1&TOKEN=2', '/api/x?Access_Token=[redacted]&TOKEN=[redacted]'],
      ['/api/x?token=%E0%A4%A', '/api/x?token=[redacted]'],
      // A payout form sent without JavaScript puts its bank numbers in the query.
      ['/payment-setup?routing_number=021000021&account_number=000123456789&holder_name=Pat', '/payment-setup?routing_number=[redacted]&account_number=[redacted]&holder_name=Pat'],
      ['/x?ACCOUNT=1234&routingNumber=5&tax_id=a', '/x?ACCOUNT=[redacted]&routingNumber=[redacted]&tax_id=[redacted]'],
      ['/api/product/browse?category=mugs&page=2', '/api/product/browse?category=mugs&page=2'],
      ['/api/videos', '/api/videos'],
    ];
    for (const [url, logged] of cases) expect(redactUrl(url), url).toBe(logged);
  });

  it("gives the logger Fastify's fields with the URL redacted", () => {
    const fields = requestLogFields({ method: 'GET', url: '/orders/1?token=abc', host: 'localhost', ip: '127.0.0.1', socket: { remotePort: 5 } });
    expect(fields).toEqual({ method: 'GET', url: '/orders/1?token=[redacted]', host: 'localhost', remoteAddress: '127.0.0.1', remotePort: 5 });
  });
});
