/**
 * Numbers a client sends are finite. JSON.parse reads 1e999 as Infinity, and the schemas' type
 * coercion turns the query strings 'Infinity' and '1e999' into it too; an integer type lets
 * Infinity through (Infinity % 1 is NaN, which the check does not catch), and would reach the
 * database as a value it cannot take (a 500). Every query string, path parameter and JSON body
 * is checked after validation, so after coercion, and a number that is not finite is refused as
 * a schema refuses a value: 400, naming the field.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from './errors.ts';

/** Where in `value` (nested objects and arrays included) the first number that is not finite is, as a dotted path; null when none is. */
export function nonFiniteAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (value === null || typeof value !== 'object' || depth > 64 || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = nonFiniteAt(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

export function refuseNonFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const at = nonFiniteAt(request.query, 'querystring') ?? nonFiniteAt(request.params, 'params') ?? nonFiniteAt(request.body, 'body');
    if (at) throw new AppError(400, ERROR_CODES.VALIDATION_FAILED, `Invalid ${at}: must be a finite number`);
  });
}
