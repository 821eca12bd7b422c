import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { ApiError } from '../../lib/ApiError.ts';
import { authErrorText, authInputError } from './authErrorText.ts';

describe('authErrorText', () => {
  it('says the email is taken on 409', () => {
    expect(authErrorText(new ApiError(409, 'CONFLICT', 'x', 'whatever the server said'))).toBe(
      'This email is already registered. Please sign in instead.',
    );
  });

  it("shows the server's own error text", () => {
    expect(authErrorText(new ApiError(401, 'UNAUTHENTICATED', 'Invalid email or password.', 'Invalid email or password.'))).toBe(
      'Invalid email or password.',
    );
    expect(authErrorText(new ApiError(429, 'RATE_LIMITED', AUTH_MESSAGES.tooManyAttempts, AUTH_MESSAGES.tooManyAttempts))).toBe(
      AUTH_MESSAGES.tooManyAttempts,
    );
  });

  it('quotes status and body when the server gave no error text', () => {
    expect(authErrorText(new ApiError(500, 'HTTP_ERROR', 'Request failed with status 500', null, '{"oops":true}'))).toBe(
      'Server error: 500 - {"oops":true}',
    );
  });

  it('says Authentication failed for success: false without a reason', () => {
    expect(authErrorText(new ApiError(200, 'HTTP_ERROR', 'Request failed with status 200', null, '{"success":false}'))).toBe(
      'Authentication failed',
    );
    expect(authErrorText(new ApiError(200, 'HTTP_ERROR', 'No.', 'No.', '{}'))).toBe('No.');
  });

  it('names timeouts, network failures and replies that are not JSON', () => {
    expect(authErrorText(new DOMException('signal timed out', 'TimeoutError'))).toBe(
      'Request timed out. Please check your connection and try again.',
    );
    expect(authErrorText(new ApiError(0, 'NETWORK_ERROR', 'x'))).toBe(
      'Network error. Please check your internet connection and try again.',
    );
    expect(authErrorText(new ApiError(502, 'NOT_JSON', 'x', null, '<html>'))).toBe('Unexpected response from server (not JSON)');
  });
});

describe('authInputError', () => {
  it('asks for the email first, then the password', () => {
    expect(authInputError('login', '  ', '')).toBe('Please enter your email.');
    expect(authInputError('login', 'a@b.example', '')).toBe('Please enter your password.');
    expect(authInputError('login', 'a@b.example', 'x')).toBeNull();
  });

  it('checks the length of a new password only', () => {
    expect(authInputError('signup', 'a@b.example', 'short')).toBe(AUTH_MESSAGES.passwordTooShort);
    expect(authInputError('signup', 'a@b.example', 'long enough')).toBeNull();
  });
});
