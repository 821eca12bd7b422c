import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';
import { formatKeyList, keyIdOf, parseKeyList, SealedValueError, SealedValues, type KeyRing } from './sealed-values.ts';
import { nextKeyId, withCurrentKey } from './rotation.ts';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const ringK1: KeyRing = { current: 'k1', keys: new Map([['k1', k1]]) };
const ringK2: KeyRing = { current: 'k2', keys: new Map([['k2', k2], ['k1', k1]]) };

const USER_A = '8d1f2c8e-3b1a-4f57-9e3c-0a1b2c3d4e5f';
const USER_B = '0f9e8d7c-6b5a-4c3d-8e1f-a2b3c4d5e6f7';
const ACCOUNT = '000123456789';

/** The problem a refused value is refused with. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SealedValueError);
    return (err as SealedValueError).problem;
  }
  throw new Error('the value was not refused');
}

/** Flips one bit of a base64url field's bytes and writes it back canonically. */
function flipBit(field: string, byte: number): string {
  const bytes = Buffer.from(field, 'base64url');
  bytes[byte < 0 ? bytes.length + byte : byte]! ^= 0x01;
  return bytes.toString('base64url');
}

describe('SealedValues', () => {
  const sv = new SealedValues(ringK1);

  it('opens what it sealed, with the same associated data', () => {
    for (const plaintext of [ACCOUNT, '', '021000021', 'ünïcødé ✓', 'x'.repeat(5000)]) {
      const sealed = sv.seal(plaintext, USER_A);
      expect(sv.open(sealed, USER_A)).toBe(plaintext);
    }
  });

  it('writes v1.<key id>.<12-byte nonce>.<ciphertext and 16-byte tag>, base64url, with no plaintext in it', () => {
    const sealed = sv.seal(ACCOUNT, USER_A);
    expect(sealed).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    const [, , nonce, body] = sealed.split('.') as [string, string, string, string];
    expect(Buffer.from(nonce, 'base64url')).toHaveLength(12);
    expect(Buffer.from(body, 'base64url')).toHaveLength(ACCOUNT.length + 16);
    expect(sealed).not.toContain(ACCOUNT);
    expect(keyIdOf(sealed)).toBe('k1');
    expect(sv.keyIdOf(sealed)).toBe('k1');
  });

  it('uses no nonce and makes no ciphertext twice in 10,000 seals of one value', () => {
    const nonces = new Set<string>();
    const bodies = new Set<string>();
    const values = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const sealed = sv.seal(ACCOUNT, USER_A);
      const [, , nonce, body] = sealed.split('.') as [string, string, string, string];
      nonces.add(nonce);
      bodies.add(body);
      values.add(sealed);
    }
    expect(nonces.size).toBe(10_000);
    expect(bodies.size).toBe(10_000);
    expect(values.size).toBe(10_000);
  });

  describe('refuses a changed value', () => {
    const sealed = sv.seal(ACCOUNT, USER_A);
    const [version, keyId, nonce, body] = sealed.split('.') as [string, string, string, string];
    const join = (...parts: string[]) => parts.join('.');

    it('a changed ciphertext byte (each one)', () => {
      for (let i = 0; i < ACCOUNT.length; i++) {
        expect(refusal(() => sv.open(join(version, keyId, nonce, flipBit(body, i)), USER_A))).toBe('refused');
      }
    });
    it('a changed tag byte (each one), a cut tag, a missing tag', () => {
      for (let i = 1; i <= 16; i++) {
        expect(refusal(() => sv.open(join(version, keyId, nonce, flipBit(body, -i)), USER_A))).toBe('refused');
      }
      const bytes = Buffer.from(body, 'base64url');
      expect(refusal(() => sv.open(join(version, keyId, nonce, bytes.subarray(0, bytes.length - 1).toString('base64url')), USER_A))).toBe('refused');
      expect(refusal(() => sv.open(join(version, keyId, nonce, bytes.subarray(0, ACCOUNT.length).toString('base64url')), USER_A))).toBe('malformed');
    });
    it('a changed nonce byte (each one), and a nonce of another length', () => {
      for (let i = 0; i < 12; i++) {
        expect(refusal(() => sv.open(join(version, keyId, flipBit(nonce, i), body), USER_A))).toBe('refused');
      }
      expect(refusal(() => sv.open(join(version, keyId, randomBytes(16).toString('base64url'), body), USER_A))).toBe('malformed');
    });
    it('another key id: unknown, or another key of the ring', () => {
      expect(refusal(() => sv.open(join(version, 'k9', nonce, body), USER_A))).toBe('unknown-key');
      // Under k2, in a ring that has both: k2 cannot open what k1 sealed.
      const both = new SealedValues(ringK2);
      expect(both.open(sealed, USER_A)).toBe(ACCOUNT);
      expect(refusal(() => both.open(join(version, 'k2', nonce, body), USER_A))).toBe('refused');
    });
    it('another version, or not a sealed value at all', () => {
      expect(refusal(() => sv.open(join('v2', keyId, nonce, body), USER_A))).toBe('unknown-version');
      expect(refusal(() => sv.open(join('v0', keyId, nonce, body), USER_A))).toBe('unknown-version');
      expect(refusal(() => sv.open(ACCOUNT, USER_A))).toBe('malformed');
      expect(refusal(() => sv.open(`${sealed}.x`, USER_A))).toBe('malformed');
      expect(refusal(() => sv.open(join(version, keyId, `${nonce}=`, body), USER_A))).toBe('malformed');
      expect(refusal(() => sv.open(join(version, keyId, nonce, `${body}!`), USER_A))).toBe('malformed');
      expect(refusal(() => keyIdOf('hello'))).toBe('malformed');
    });
  });

  it("does not open user A's value for user B (or for no one)", () => {
    const sealed = sv.seal(ACCOUNT, USER_A);
    expect(refusal(() => sv.open(sealed, USER_B))).toBe('refused');
    expect(refusal(() => sv.open(sealed, ''))).toBe('refused');
    expect(refusal(() => sv.open(sealed, `${USER_A} `))).toBe('refused');
    expect(sv.open(sealed, USER_A)).toBe(ACCOUNT);
  });

  it('names no plaintext and no key in its errors', () => {
    const sealed = sv.seal(ACCOUNT, USER_A);
    try {
      sv.open(sealed, USER_B);
    } catch (err) {
      expect(String((err as Error).message)).not.toContain(ACCOUNT);
      expect(String((err as Error).message)).not.toContain(k1.toString('base64'));
    }
  });

  it('rotation: values sealed under k1 still open once k2 is current, and need rewrapping', () => {
    const old = Array.from({ length: 5 }, (_, i) => sv.seal(`${ACCOUNT}${i}`, USER_A));
    const rotated = new SealedValues(ringK2);
    expect(rotated.currentKeyId).toBe('k2');
    old.forEach((sealed, i) => {
      expect(rotated.open(sealed, USER_A)).toBe(`${ACCOUNT}${i}`);
      expect(rotated.needsRewrap(sealed)).toBe(true);
      expect(sv.needsRewrap(sealed)).toBe(false);
      const again = rotated.rewrap(sealed, USER_A);
      expect(keyIdOf(again)).toBe('k2');
      expect(rotated.needsRewrap(again)).toBe(false);
      expect(rotated.open(again, USER_A)).toBe(`${ACCOUNT}${i}`);
      // The ring without k2 cannot open it.
      expect(refusal(() => sv.open(again, USER_A))).toBe('unknown-key');
    });
    const fresh = rotated.seal(ACCOUNT, USER_B);
    expect(keyIdOf(fresh)).toBe('k2');
    expect(rotated.needsRewrap(fresh)).toBe(false);
  });

  it('refuses a ring whose current key is missing or whose keys are not 32 bytes', () => {
    expect(() => new SealedValues({ current: 'k2', keys: new Map([['k1', k1]]) })).toThrow(/current key k2/);
    expect(() => new SealedValues({ current: 'k1', keys: new Map([['k1', randomBytes(16)]]) })).toThrow(/32 bytes/);
    expect(() => new SealedValues({ current: 'a.b', keys: new Map([['a.b', k1]]) })).toThrow(/key id/);
  });

  it('keeps its own copy of the keys', () => {
    const key = randomBytes(32);
    const mine = new SealedValues({ current: 'k1', keys: new Map([['k1', key]]) });
    const sealed = mine.seal(ACCOUNT, USER_A);
    key.fill(0);
    expect(mine.open(sealed, USER_A)).toBe(ACCOUNT);
  });
});

describe('key lists (PAYOUT_ENCRYPTION_KEYS, --new-key)', () => {
  it('reads id:key pairs, the first current, and writes them back', () => {
    const text = `k2:${k2.toString('base64')}, k1:${k1.toString('base64url')}`;
    const { ring } = parseKeyList(text);
    expect(ring?.current).toBe('k2');
    expect(ring?.keys.get('k1')?.equals(k1)).toBe(true);
    expect(ring?.keys.get('k2')?.equals(k2)).toBe(true);
    expect(formatKeyList(ring!)).toBe(`k2:${k2.toString('base64')},k1:${k1.toString('base64')}`);
  });

  it('names the next key id and puts a new key first', () => {
    expect(nextKeyId(ringK1)).toBe('k2');
    expect(nextKeyId(ringK2)).toBe('k3');
    expect(nextKeyId({ current: 'prod', keys: new Map([['prod', k1]]) })).toBe('k1');
    const k3 = randomBytes(32);
    const ring = withCurrentKey(ringK2, 'k3', k3);
    expect(ring.current).toBe('k3');
    expect([...ring.keys.keys()]).toEqual(['k3', 'k2', 'k1']);
    expect(() => withCurrentKey(ringK2, 'k1', k3)).toThrow(/another key/);
  });

  it('config: PAYOUT_ENCRYPTION_KEYS becomes the ring; unset leaves it to the key file', () => {
    expect(loadConfig({}).payoutKeys).toBeNull();
    expect(loadConfig({ PAYOUT_ENCRYPTION_KEYS: '' }).payoutKeys).toBeNull();
    const ring = loadConfig({ PAYOUT_ENCRYPTION_KEYS: `k2:${k2.toString('base64')},k1:${k1.toString('base64')}` }).payoutKeys;
    expect(ring?.current).toBe('k2');
    expect([...(ring?.keys.keys() ?? [])]).toEqual(['k2', 'k1']);
  });

  it('config: refuses keys that are not 32 bytes of base64, ill-formed ids and repeated ids, naming no key', () => {
    const cases: [string, RegExp][] = [
      [`k1:${randomBytes(16).toString('base64')}`, /key k1 must be 32 bytes \(got 16\)/],
      [`k1:${randomBytes(33).toString('base64')}`, /key k1 must be 32 bytes \(got 33\)/],
      ['k1:not*base64', /key k1 is not base64/],
      [k1.toString('base64'), /entry 1 is not id:key/],
      [`bad.id:${k1.toString('base64')}`, /key id "bad.id"/],
      [`k1:${k1.toString('base64')},k1:${k2.toString('base64')}`, /key id k1 appears twice/],
      [',', /at least one/],
    ];
    for (const [value, message] of cases) {
      let err: unknown;
      try {
        loadConfig({ PAYOUT_ENCRYPTION_KEYS: value });
      } catch (e) {
        err = e;
      }
      expect(err, value).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).message;
      expect(text).toMatch(/PAYOUT_ENCRYPTION_KEYS must be id:key pairs/);
      expect(text).toMatch(message);
      expect(text).not.toContain(k1.toString('base64'));
      expect(text).not.toContain(k2.toString('base64'));
    }
  });
});
