import { describe, expect, it } from 'vitest';
import { passedMessage } from './passedMessage.ts';

describe('passedMessage', () => {
  it('reads a non-blank message from the history state, and nothing else', () => {
    expect(passedMessage({ message: ' Payout setup complete. ' })).toBe('Payout setup complete.');
    expect(passedMessage({ message: '   ' })).toBeNull();
    expect(passedMessage({ message: 42 })).toBeNull();
    expect(passedMessage(null)).toBeNull();
    expect(passedMessage('message')).toBeNull();
    expect(passedMessage({ message: 'x'.repeat(1000) })).toHaveLength(300);
  });
});
