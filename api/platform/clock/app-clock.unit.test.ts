import { describe, expect, it } from 'vitest';
import { AppClock } from './app-clock.ts';

describe('AppClock', () => {
  it("follows the system clock, and with TEST_CLOCK moves forward to a time and keeps running from there, never back", () => {
    let system = Date.UTC(2026, 10, 26, 8, 0);
    const clock = new AppClock(true, () => system);
    expect(clock.now().toISOString()).toBe('2026-11-26T08:00:00.000Z');
    expect(clock.advanceTo(new Date('2026-12-01T00:05:00Z'))).toBe(true);
    expect(clock.now().toISOString()).toBe('2026-12-01T00:05:00.000Z');
    system += 60_000;
    expect(clock.now().toISOString()).toBe('2026-12-01T00:06:00.000Z');
    expect(clock.advanceTo(new Date('2026-11-30T00:00:00Z'))).toBe(false);
    expect(clock.now().toISOString()).toBe('2026-12-01T00:06:00.000Z');
    expect(clock.offsetMs).toBe(Date.UTC(2026, 11, 1, 0, 5) - Date.UTC(2026, 10, 26, 8, 0));
  });

  it('refuses to move when it is the system clock', () => {
    const clock = new AppClock(false, () => 0);
    expect(() => clock.advanceTo(new Date(1000))).toThrow(/TEST_CLOCK is off/);
    expect(clock.now().getTime()).toBe(0);
  });
});
