/**
 * Request bodies are taken as sent, never decompressed: a body with a Content-Encoding (gzip,
 * deflate, br...) is refused with 415 before a byte of it is read. Nothing the app serves sends
 * compressed bodies (browsers do not, nor do the payment and print webhooks), and a small
 * compressed body can expand without bound (10 MB of gzip becomes 10 GB), so none is opened.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from './errors.ts';

export const ENCODED_BODY_MESSAGE = 'Compressed request bodies are not accepted; send the body uncompressed.';

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function refuseEncodedBodies(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const encoding = request.headers['content-encoding'];
    if (encoding === undefined || !hasBody(request.headers)) return;
    const codings = String(encoding).split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
    if (codings.some((c) => c !== 'identity')) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, ENCODED_BODY_MESSAGE);
  });
}
