import { describe, expect, it } from 'vitest';
import { isFinalStatus, isSessionId, orderStatusLabel, sameSitePath } from './orderView.ts';

describe('order view', () => {
  it("names statuses in the buyer's words and knows which can change no more", () => {
    expect(orderStatusLabel('shipped')).toBe('Shipped');
    expect(orderStatusLabel('pending')).toBe('Awaiting payment');
    expect(orderStatusLabel('on_hold')).toBe('on_hold');
    expect(['delivered', 'cancelled', 'refunded'].every(isFinalStatus)).toBe(true);
    expect(['pending', 'paid', 'submitted', 'in_production', 'shipped'].some(isFinalStatus)).toBe(false);
  });

  it('asks only about session ids the server could have issued', () => {
    expect(isSessionId('cs_test_a1B2c3D4e5')).toBe(true);
    expect(isSessionId('cs_')).toBe(false);
    expect(isSessionId('../../api/orders')).toBe(false);
    expect(isSessionId('cs_abc/def1234')).toBe(false);
  });

  it('keeps links on this site inside the app', () => {
    const origin = 'http://127.0.0.1:3100';
    expect(sameSitePath('/orders/x?token=abc', origin)).toBe('/orders/x?token=abc');
    expect(sameSitePath('http://127.0.0.1:3100/orders/x?token=abc', origin)).toBe('/orders/x?token=abc');
    expect(sameSitePath('https://elsewhere.example/orders/x', origin)).toBeNull();
  });
});
