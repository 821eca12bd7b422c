import { ERROR_CODES, type ErrorCode } from '../../../shared/schemas/common.ts';

/** An error meant for the client: its message is shown, its code is branched on. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }

  static notFound(message: string) {
    return new AppError(404, ERROR_CODES.NOT_FOUND, message);
  }

  static badRequest(message: string) {
    return new AppError(400, ERROR_CODES.VALIDATION_FAILED, message);
  }
}
