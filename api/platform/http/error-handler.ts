/**
 * One error handler for the whole API: every failure answers { success: false, error, code }
 * with a stable code. Client mistakes (validation, malformed JSON, wrong content type, too
 * large) are 4xx with a useful message; anything else is a 500 whose details stay in the log.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES, type ErrorCode, type ErrorReply } from '../../../shared/schemas/common.ts';
import { AppError } from './errors.ts';
import { multipartFault } from './multipart.ts';

const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'The request body is empty; JSON was expected.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: ERROR_CODES.PAYLOAD_TOO_LARGE, message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, message: 'This content type is not accepted here.' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST },
  FST_ERR_BAD_URL: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'The request URL is malformed.' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST },
};

export function errorBody(error: string, code: ErrorCode): ErrorReply {
  return { success: false, error, code };
}

function describeValidation(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const where = err.validationContext ?? 'request';
  const field = first.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  const name = [where, field || missing].filter(Boolean).join('.');
  return `Invalid ${name}: ${missing ? 'is required' : first.message ?? 'is not valid'}`;
}

export function classify(err: FastifyError | AppError | Error): { status: number; code: ErrorCode; message: string } {
  if (err instanceof AppError) return { status: err.statusCode, code: err.code, message: err.message };
  const fe = err as FastifyError;
  if (fe.validation) return { status: 400, code: ERROR_CODES.VALIDATION_FAILED, message: describeValidation(fe) };
  // The multipart parser's errors carry no status: a body it cannot read is the client's fault.
  const multipart = multipartFault(err);
  if (multipart) return { status: multipart.statusCode, code: multipart.code, message: multipart.message };
  // The client closed the connection before its body had arrived: nobody is left to answer, and it is not our fault.
  if (fe.code === 'ECONNRESET' && err.message === 'aborted') {
    return { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'The request ended before its body was complete.' };
  }
  const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (known) return { status: known.status, code: known.code, message: known.message ?? fe.message };
  const status = fe.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = status === 404 ? ERROR_CODES.NOT_FOUND : status === 413 ? ERROR_CODES.PAYLOAD_TOO_LARGE
      : status === 415 ? ERROR_CODES.UNSUPPORTED_MEDIA_TYPE : status === 429 ? ERROR_CODES.RATE_LIMITED
      : ERROR_CODES.MALFORMED_REQUEST;
    return { status, code, message: fe.message };
  }
  return { status: 500, code: ERROR_CODES.INTERNAL, message: 'Something went wrong on our side. Please try again.' };
}

async function errors(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, code, message } = classify(err);
    if (status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ code, message }, 'request refused');
    if (reply.sent) return;
    // A refusal sent before the body has fully arrived closes the connection, so the rest of it does not hold the socket.
    if (request.raw.complete === false) void reply.header('connection', 'close');
    reply.code(status).type('application/json; charset=utf-8').send(errorBody(message, code));
  });
}

export default fp(errors, { name: 'errors' });
