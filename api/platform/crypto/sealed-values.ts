/**
 * Sealed values: short secrets (bank account and routing numbers) kept encrypted in the
 * database. AES-256-GCM with a fresh random 96-bit nonce per seal and a 128-bit tag; the caller's
 * associated data (the user id) is bound in, so a value copied to another user's row does not
 * open. Each value names the key it was sealed under, so keys can rotate: a KeyRing holds the
 * current key (used to seal) and older ones (still used to open) until no value needs them.
 *
 *   v1.<key id>.<nonce, base64url, 12 bytes>.<ciphertext and tag, base64url>
 *
 * The version and key id are part of the associated data too, so no part of a value can be
 * changed without the value being refused.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SEALED_VERSION = 'v1';
export const KEY_BYTES = 32;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;
/** Key ids: letters, digits, '_' and '-', as they sit between the dots of a sealed value. */
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64_KEY = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;

/** The keys values are sealed and opened with: `current` seals, every key in `keys` opens. */
export interface KeyRing {
  readonly current: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

export type SealedValueProblem = 'malformed' | 'unknown-version' | 'unknown-key' | 'refused';

/** A value that cannot be opened: not a sealed value, another version, an unknown key, or changed (or for someone else). */
export class SealedValueError extends Error {
  override name = 'SealedValueError';
  constructor(
    readonly problem: SealedValueProblem,
    message: string,
  ) {
    super(message);
  }
}

interface Parsed {
  keyId: string;
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function decodeBase64url(text: string): Buffer | null {
  if (!BASE64URL.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  // Only the one canonical spelling of each byte string is accepted.
  return bytes.toString('base64url') === text ? bytes : null;
}

function parse(sealed: string): Parsed {
  if (typeof sealed !== 'string') throw new SealedValueError('malformed', 'not a sealed value');
  const parts = sealed.split('.');
  if (parts.length !== 4) throw new SealedValueError('malformed', 'not a sealed value');
  const [version, keyId, nonceText, bodyText] = parts as [string, string, string, string];
  if (version !== SEALED_VERSION) throw new SealedValueError('unknown-version', `sealed value of unknown version "${version.slice(0, 8)}"`);
  if (!KEY_ID.test(keyId)) throw new SealedValueError('malformed', 'sealed value with an ill-formed key id');
  const nonce = decodeBase64url(nonceText);
  if (!nonce || nonce.length !== NONCE_BYTES) throw new SealedValueError('malformed', 'sealed value with an ill-formed nonce');
  const body = decodeBase64url(bodyText);
  if (!body || body.length < TAG_BYTES) throw new SealedValueError('malformed', 'sealed value with an ill-formed ciphertext');
  return { keyId, nonce, ciphertext: body.subarray(0, body.length - TAG_BYTES), tag: body.subarray(body.length - TAG_BYTES) };
}

/** The id of the key a value was sealed under (SealedValueError when it is no sealed value). */
export function keyIdOf(sealed: string): string {
  return parse(sealed).keyId;
}

/** The associated data GCM authenticates: the value's header, then the caller's. */
function aadFor(keyId: string, associatedData: string): Buffer {
  return Buffer.from(`${SEALED_VERSION}.${keyId}.${associatedData}`, 'utf8');
}

/** Why this id and key cannot be in a ring, or null when they can. Names no key material. */
export function keyProblem(id: string, key: Buffer): string | null {
  if (!KEY_ID.test(id)) return `key id "${id.slice(0, 40)}" must be 1 to 32 letters, digits, '_' or '-'`;
  if (key.length !== KEY_BYTES) return `key ${id} must be ${KEY_BYTES} bytes (got ${key.length})`;
  return null;
}

/** A key written in base64 (or base64url); null when it is not. */
export function decodeKey(text: string): Buffer | null {
  if (!BASE64_KEY.test(text)) return null;
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

export function generateKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/**
 * Reads `id:base64key,id:base64key…`, the current key first (the form of PAYOUT_ENCRYPTION_KEYS
 * and of --new-key). Problems never quote key material.
 */
export function parseKeyList(text: string): { ring: KeyRing; problems: [] } | { ring: null; problems: string[] } {
  const problems: string[] = [];
  const keys = new Map<string, Buffer>();
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) problems.push('needs at least one id:key pair');
  entries.forEach((entry, i) => {
    const colon = entry.indexOf(':');
    if (colon < 0) {
      problems.push(`entry ${i + 1} is not id:key (e.g. k1:$(openssl rand -base64 32))`);
      return;
    }
    const id = entry.slice(0, colon).trim();
    const key = decodeKey(entry.slice(colon + 1).trim());
    if (!key) {
      problems.push(`key ${KEY_ID.test(id) ? id : `in entry ${i + 1}`} is not base64`);
      return;
    }
    const problem = keyProblem(id, key);
    if (problem) problems.push(problem);
    else if (keys.has(id)) problems.push(`key id ${id} appears twice`);
    else keys.set(id, key);
  });
  if (problems.length > 0) return { ring: null, problems };
  return { ring: { current: [...keys.keys()][0]!, keys }, problems: [] };
}

/** The ring in the form parseKeyList reads, the current key first. */
export function formatKeyList(ring: KeyRing): string {
  const ids = [ring.current, ...[...ring.keys.keys()].filter((id) => id !== ring.current)];
  return ids.map((id) => `${id}:${ring.keys.get(id)!.toString('base64')}`).join(',');
}

export class SealedValues {
  readonly #current: string;
  readonly #keys: ReadonlyMap<string, Buffer>;

  constructor(ring: KeyRing) {
    const keys = new Map<string, Buffer>();
    for (const [id, key] of ring.keys) {
      const problem = keyProblem(id, key);
      if (problem) throw new Error(`Invalid key ring: ${problem}`);
      keys.set(id, Buffer.from(key));
    }
    if (!keys.has(ring.current)) throw new Error(`Invalid key ring: the current key ${ring.current} is not in it`);
    this.#current = ring.current;
    this.#keys = keys;
  }

  /** The key new values are sealed under. */
  get currentKeyId(): string {
    return this.#current;
  }

  /** Every key id this ring opens. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  seal(plaintext: string, associatedData: string): string {
    const key = this.#keys.get(this.#current)!;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aadFor(this.#current, associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_VERSION}.${this.#current}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The plaintext; SealedValueError when the value was changed, is someone else's, or its key is not in the ring. */
  open(sealed: string, associatedData: string): string {
    const { keyId, nonce, ciphertext, tag } = parse(sealed);
    const key = this.#keys.get(keyId);
    if (!key) throw new SealedValueError('unknown-key', `sealed under key ${keyId}, which is not in the key ring`);
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(aadFor(keyId, associatedData));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SealedValueError('refused', 'sealed value refused: changed, or sealed for other associated data');
    }
  }

  keyIdOf(sealed: string): string {
    return keyIdOf(sealed);
  }

  /** Whether the value was sealed under a key other than the current one. */
  needsRewrap(sealed: string): boolean {
    return keyIdOf(sealed) !== this.#current;
  }

  /** The same plaintext sealed again under the current key (opened first, so a bad value throws). */
  rewrap(sealed: string, associatedData: string): string {
    return this.seal(this.open(sealed, associatedData), associatedData);
  }
}
