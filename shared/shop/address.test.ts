import { describe, expect, it } from 'vitest';
import { addressLines } from './address.ts';

describe('addressLines', () => {
  it('writes an address as label lines, leaving out the parts it does not have', () => {
    expect(addressLines({ address1: '1 Main St', address2: 'Apt 2', city: 'New York', state_code: 'NY', zip: '10001', country_code: 'US' }, 'US')).toEqual([
      '1 Main St',
      'Apt 2',
      'New York, NY 10001',
      'United States',
    ]);
    expect(addressLines({ address1: '10 Downing St', city: 'London', zip: 'SW1A 2AA', country_code: 'GB' }, 'GB')).toEqual(['10 Downing St', 'London, SW1A 2AA', 'United Kingdom']);
    // The order's country where the address names none.
    expect(addressLines({ address1: 'Unter den Linden 1', city: 'Berlin', zip: '10117' }, 'DE')).toEqual(['Unter den Linden 1', 'Berlin, 10117', 'Germany']);
  });

  it('answers no lines for an order with no street address yet', () => {
    expect(addressLines(null, 'US')).toEqual([]);
    expect(addressLines({ zip: '10001' }, 'US')).toEqual([]);
  });
});
