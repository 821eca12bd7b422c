import { describe, expect, it } from 'vitest';
import { DRAFT_KEY, EMPTY_DRAFT, loadDraft, parseDraft, saveDraft } from './checkoutDraft.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), items };
}

describe('the checkout draft', () => {
  it('gives back every field as it was typed (a declined card returns to a filled form)', () => {
    const storage = memoryStorage();
    const typed = { zip: 'M5V 2T6', country: 'CA' as const, email: 'ada@example.com', smsConsent: true };
    saveDraft(typed, storage);
    expect(loadDraft(storage)).toEqual(typed);
  });

  it('starts empty, unticked and in the default country', () => {
    expect(loadDraft(memoryStorage())).toEqual({ zip: '', country: 'US', email: '', smsConsent: false });
    expect(loadDraft(null)).toEqual(EMPTY_DRAFT);
  });

  it('reads a damaged or tampered record field by field, never as consent', () => {
    expect(parseDraft('not json')).toEqual(EMPTY_DRAFT);
    expect(parseDraft('null')).toEqual(EMPTY_DRAFT);
    expect(parseDraft(JSON.stringify({ zip: 10001, country: 'FR', email: ['x'], smsConsent: 'yes' }))).toEqual(EMPTY_DRAFT);
    expect(parseDraft(JSON.stringify({ zip: '1'.repeat(50), country: 'GB' }))).toEqual({ ...EMPTY_DRAFT, zip: '1'.repeat(20), country: 'GB' });
  });

  it('survives a storage that refuses to work', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(loadDraft(broken)).toEqual(EMPTY_DRAFT);
    expect(() => saveDraft(EMPTY_DRAFT, broken)).not.toThrow();
    const storage = memoryStorage();
    saveDraft(EMPTY_DRAFT, storage);
    expect(storage.items.has(DRAFT_KEY)).toBe(true);
  });
});
