import { errorCodes, type ErrorDetail } from '@reskin/contract';

/**
 * An error a service throws on purpose. The error-envelope plugin turns it into
 * `{ error: { statusCode, name, message, code, details } }` (DESIGN.md "API conventions").
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorName: string,
    message: string,
    readonly code: string,
    readonly details: ErrorDetail[] = [],
    /** Seconds the client should wait before trying again: sent as the Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const badRequest = (
  message: string,
  code: string = errorCodes.validationFailed,
  details: ErrorDetail[] = [],
) => new AppError(400, 'BadRequestError', message, code, details);

export const unprocessable = (message: string, details: ErrorDetail[] = []) =>
  new AppError(422, 'UnprocessableEntityError', message, errorCodes.validationFailed, details);

export const unauthorized = (
  message = 'Authorization is required.',
  code: string = errorCodes.unauthorized,
) => new AppError(401, 'UnauthorizedError', message, code);

export const forbidden = (
  message = 'You are not allowed to do this.',
  code: string = errorCodes.forbidden,
  details: ErrorDetail[] = [],
) => new AppError(403, 'ForbiddenError', message, code, details);

export const notFound = (what = 'Entity') =>
  new AppError(404, 'NotFoundError', `${what} not found.`, errorCodes.notFound);

export const conflict = (message: string, code: string, details: ErrorDetail[] = []) =>
  new AppError(409, 'ConflictError', message, code, details);

/** 429: too many failed attempts for this account; the same request may work after `seconds` (Retry-After). */
export const tooManyAttempts = (seconds: number) =>
  new AppError(
    429,
    'TooManyRequestsError',
    `Too many failed attempts; try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    errorCodes.rateLimited,
    [],
    seconds,
  );

/** The database cannot be reached (restarting, failing over): try again shortly; nothing was wrong with the request. */
export const databaseUnavailable = () =>
  new AppError(
    503,
    'ServiceUnavailableError',
    'The database is unavailable; try again shortly.',
    errorCodes.databaseUnavailable,
  );
