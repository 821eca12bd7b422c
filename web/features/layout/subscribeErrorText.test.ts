import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/ApiError.ts';
import { isValidEmail, subscribeErrorText } from './subscribeErrorText.ts';

describe('isValidEmail', () => {
  it('accepts an address and refuses blanks and fragments', () => {
    expect(isValidEmail(' fan@example.com ')).toBe(true);
    expect(isValidEmail('a.b+c@mail.example.co.uk')).toBe(true);
    for (const bad of ['', '   ', 'fan', 'fan@', '@example.com', 'fan@example', 'fan@@example.com', 'a b@example.com', 'fan@example.']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
});

describe('subscribeErrorText', () => {
  it('says the backend is not running when it was not reached', () => {
    expect(subscribeErrorText(new ApiError(0, 'NETWORK_ERROR', 'x'))).toBe(
      'Backend server is not running. Please start the backend server first.',
    );
  });

  it("quotes the server's message otherwise", () => {
    expect(
      subscribeErrorText(new ApiError(400, 'VALIDATION_FAILED', 'Please enter a valid email address', 'Please enter a valid email address')),
    ).toBe('Failed to send email: Please enter a valid email address');
    expect(subscribeErrorText(new ApiError(429, 'RATE_LIMITED', 'Too many requests.', 'Too many requests.'))).toBe(
      'Failed to send email: Too many requests.',
    );
    expect(subscribeErrorText(new DOMException('signal timed out', 'TimeoutError'))).toBe('Failed to send email: Request timed out.');
  });
});
