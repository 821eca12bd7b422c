import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './rate-limit.ts';

function clocked(max: number, windowMs: number) {
  let now = 1_000_000;
  const limiter = new FailureLimiter(max, windowMs, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

describe('FailureLimiter', () => {
  it('blocks a key at its limit until the oldest failure leaves the window; others are not affected', () => {
    const { limiter, advance } = clocked(3, 60_000);
    for (let i = 0; i < 3; i++) {
      expect(limiter.blocked('a')).toBe(false);
      limiter.fail('a');
      advance(10_000);
    }
    expect(limiter.blocked('a')).toBe(true);
    expect(limiter.blocked('b')).toBe(false);
    advance(29_999);
    expect(limiter.blocked('a')).toBe(true);
    advance(1);
    expect(limiter.blocked('a')).toBe(false);
  });

  it('says how many whole seconds to wait: 0 when not blocked, rounded up, at least 1', () => {
    const { limiter, advance } = clocked(2, 60_000);
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    limiter.fail('a');
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    advance(15_500);
    limiter.fail('a');
    // The oldest of the two leaves the window 60 s after it came: 44.5 s from now, said as 45.
    expect(limiter.retryAfterSeconds('a')).toBe(45);
    advance(44_000);
    expect(limiter.retryAfterSeconds('a')).toBe(1);
    advance(499);
    expect(limiter.retryAfterSeconds('a')).toBe(1);
    advance(1);
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    expect(limiter.blocked('a')).toBe(false);
    expect(limiter.retryAfterSeconds('b')).toBe(0);
  });

  it('with more failures than the limit (requests that raced past it), waits until enough have left', () => {
    const { limiter, advance } = clocked(2, 60_000);
    for (let i = 0; i < 4; i++) {
      limiter.fail('a');
      advance(10_000);
    }
    // Failures at 0, 10, 20 and 30 s; now 40 s. One more is let in once only one is left in the window, at 80 s.
    expect(limiter.retryAfterSeconds('a')).toBe(40);
  });

  it('forgets a key on reset', () => {
    const { limiter } = clocked(1, 60_000);
    limiter.fail('a');
    expect(limiter.retryAfterSeconds('a')).toBe(60);
    limiter.reset('a');
    expect(limiter.retryAfterSeconds('a')).toBe(0);
  });
});
