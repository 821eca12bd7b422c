import { Type, type Static } from 'typebox';

/** Every failure answers this shape, with a stable machine-readable code. */
export const ErrorReply = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'A message fit to show a person.' }),
    code: Type.String({ description: 'A stable code to branch on, e.g. VALIDATION_FAILED, NOT_FOUND.' }),
  },
  { additionalProperties: false },
);
export type ErrorReply = Static<typeof ErrorReply>;

export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/** Error codes the API answers with; the web client branches on these, never on message text. */
export const ERROR_CODES = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  MALFORMED_REQUEST: 'MALFORMED_REQUEST',
  NOT_FOUND: 'NOT_FOUND',
  ROUTE_NOT_FOUND: 'ROUTE_NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RANGE_NOT_SATISFIABLE: 'RANGE_NOT_SATISFIABLE',
  RATE_LIMITED: 'RATE_LIMITED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  FORBIDDEN: 'FORBIDDEN',
  CONFLICT: 'CONFLICT',
  /** A webhook whose signature, secret or timestamp does not check out. */
  INVALID_SIGNATURE: 'INVALID_SIGNATURE',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Standard failure replies a route may list beside its success reply. */
export const errorReplies = <const S extends readonly number[]>(...statuses: S) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorReply])) as { [K in S[number]]: typeof ErrorReply };
