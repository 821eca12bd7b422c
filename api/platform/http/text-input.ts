/**
 * Text a client sends may not hold a NUL character: PostgreSQL text cannot store one, so a value
 * with U+0000 would fail deep inside a statement (a 500) instead of being refused up front. Every
 * JSON body, query string and path parameter is checked before validation; multipart routes check
 * their text fields with hasNul() as they read them.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from './errors.ts';

export const NUL_IN_TEXT = 'Text fields may not contain NUL characters.';

/** Whether any string in the value (nested objects and arrays included, keys too) holds U+0000. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  if (Buffer.isBuffer(value)) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

export function nulInText(): AppError {
  return new AppError(400, ERROR_CODES.MALFORMED_REQUEST, NUL_IN_TEXT);
}

export function refuseNulText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) throw nulInText();
  });
}
