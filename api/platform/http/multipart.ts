/**
 * Reading multipart bodies safely. The parser (@fastify/multipart over busboy) reports a
 * malformed body with plain errors that carry no status, which would otherwise answer 500; and
 * it can stop for good on some malformed bodies (a part without Content-Disposition that is
 * larger than its 16 KB stream buffer is skipped, and the parser then waits for a read that
 * never comes). Every multipart route reads its parts through multipartParts(), which turns
 * both into 400, 413 or 415 answers.
 */
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from './errors.ts';

export const MALFORMED_MULTIPART = 'The multipart body is malformed.';

/**
 * How long the parser may sit idle while every byte it needs is already in hand (the body has
 * ended, or it is held back waiting for the parser) before the body is called malformed.
 * A working parser answers in milliseconds; a client that is merely slow is not affected,
 * since its bytes have not arrived (the server's idle timeout looks after those).
 */
export const PARSER_STALL_MS = 1000;
const POLL_MS = 100;

/** The errors @fastify/multipart gives codes to, as the API answers them. */
const PLUGIN_CODES: Record<string, { status: number; code: (typeof ERROR_CODES)[keyof typeof ERROR_CODES]; message: string }> = {
  FST_PARTS_LIMIT: { status: 413, code: ERROR_CODES.PAYLOAD_TOO_LARGE, message: 'The form has too many parts.' },
  FST_FILES_LIMIT: { status: 413, code: ERROR_CODES.PAYLOAD_TOO_LARGE, message: 'The form has too many files.' },
  FST_FIELDS_LIMIT: { status: 413, code: ERROR_CODES.PAYLOAD_TOO_LARGE, message: 'The form has too many fields.' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: ERROR_CODES.PAYLOAD_TOO_LARGE, message: 'The file is too large.' },
  FST_PROTO_VIOLATION: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: MALFORMED_MULTIPART },
  FST_INVALID_JSON_FIELD_ERROR: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: MALFORMED_MULTIPART },
  FST_MP_PREMATURE_CLOSE: { status: 400, code: ERROR_CODES.MALFORMED_REQUEST, message: 'The request ended before the form was complete.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, code: ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, message: 'The request must be multipart/form-data.' },
};

/** busboy's own messages for a body it cannot read (it gives them no code). */
const PARSER_MESSAGES = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /^The needle (cannot|has to)/,
  /^Unexpected end of (multipart data|form)$/,
  /terminated early due to unexpected end of multipart data$/,
  /^Unsupported Content-Type\.$/,
  /^Missing Content-Type-header\.$/,
  /^Malformed part header$/,
];

/** The client error a multipart parsing failure stands for, or null when `err` is no such failure. */
export function multipartFault(err: unknown): AppError | null {
  if (err instanceof AppError || !(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  const known = typeof code === 'string' ? PLUGIN_CODES[code] : undefined;
  if (known) return new AppError(known.status, known.code, known.message);
  if (code === undefined && PARSER_MESSAGES.some((m) => m.test(err.message))) {
    return new AppError(400, ERROR_CODES.MALFORMED_REQUEST, MALFORMED_MULTIPART);
  }
  return null;
}

/** Whether every byte the parser could use is in hand: the body has ended, or it is held back by the parser. */
function parserHasInput(raw: FastifyRequest['raw']): boolean {
  return raw.readableEnded || raw.readableFlowing === false || raw.destroyed;
}

/** `next` settled, or rejected as malformed once the parser has been stalled for PARSER_STALL_MS. */
function unlessStalled<T>(next: Promise<T>, raw: FastifyRequest['raw']): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let idleSince: number | null = null;
    const timer = setInterval(() => {
      if (!parserHasInput(raw)) {
        idleSince = null;
        return;
      }
      idleSince ??= Date.now();
      if (Date.now() - idleSince >= PARSER_STALL_MS) {
        clearInterval(timer);
        reject(new AppError(400, ERROR_CODES.MALFORMED_REQUEST, MALFORMED_MULTIPART));
      }
    }, POLL_MS);
    next.then(
      (value) => {
        clearInterval(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearInterval(timer);
        reject(multipartFault(err) ?? err);
      },
    );
  });
}

export interface MultipartLimits {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize?: number;
  parts?: number;
}

/**
 * The parts of a multipart request, one at a time, as request.parts() gives them; a parser error
 * becomes a 4xx AppError and a stalled parser a 400. The caller consumes (or resumes) each file
 * before asking for the next part, as with request.parts().
 */
export async function* multipartParts(request: FastifyRequest, limits: MultipartLimits): AsyncGenerator<Multipart> {
  if (!request.isMultipart()) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, PLUGIN_CODES.FST_INVALID_MULTIPART_CONTENT_TYPE!.message);
  const parts = request.parts({ limits })[Symbol.asyncIterator]();
  for (;;) {
    const next = await unlessStalled(parts.next(), request.raw);
    if (next.done) return;
    yield next.value;
  }
}
