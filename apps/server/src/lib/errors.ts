import { errorCodes, type ErrorCode, type ErrorDetail } from '@reskin/contract';

/** The envelope's error.name of each status: one table for every answer of both origins (decision 0057). */
const namesByStatus: Readonly<Record<number, string>> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  406: 'NotAcceptableError',
  408: 'RequestTimeoutError',
  409: 'ConflictError',
  410: 'GoneError',
  413: 'PayloadTooLargeError',
  414: 'URITooLongError',
  415: 'UnsupportedMediaTypeError',
  416: 'RangeNotSatisfiableError',
  422: 'UnprocessableEntityError',
  423: 'LockedError',
  429: 'TooManyRequestsError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
  507: 'InsufficientStorageError',
};

/** The error.name of a status (a status the table lacks: the name of its class, 4xx or 5xx). */
export function errorName(statusCode: number): string {
  return namesByStatus[statusCode] ?? (statusCode >= 500 ? 'InternalServerError' : 'BadRequestError');
}

/**
 * An error a service throws on purpose. The error-envelope plugin turns it into
 * `{ error: { statusCode, name, message, code, details } }` (DESIGN.md "API conventions"); the name follows from
 * the status (errorName), the code is one of the contract's errorCodes.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Seconds the client should wait before trying again: sent as the Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get errorName(): string {
    return errorName(this.statusCode);
  }
}

/** An error whose one detail repeats its message, at `path` with the detail code `detailCode`. */
export function withDetail(
  statusCode: number,
  code: ErrorCode,
  message: string,
  path: string,
  detailCode: string,
): AppError {
  return new AppError(statusCode, code, message, [{ path, code: detailCode, message }]);
}

export const badRequest = (
  message: string,
  code: ErrorCode = errorCodes.validationFailed,
  details: ErrorDetail[] = [],
) => new AppError(400, code, message, details);

export const unprocessable = (message: string, details: ErrorDetail[] = []) =>
  new AppError(422, errorCodes.validationFailed, message, details);

export const unauthorized = (
  message = 'Authorization is required.',
  code: ErrorCode = errorCodes.unauthorized,
) => new AppError(401, code, message);

export const forbidden = (
  message = 'You are not allowed to do this.',
  code: ErrorCode = errorCodes.forbidden,
  details: ErrorDetail[] = [],
) => new AppError(403, code, message, details);

export const notFound = (what = 'Entity') => new AppError(404, errorCodes.notFound, `${what} not found.`);

export const conflict = (message: string, code: ErrorCode, details: ErrorDetail[] = []) =>
  new AppError(409, code, message, details);

/** 429: too many requests; the same request may work after `seconds` (Retry-After) when they are known. */
export const tooManyRequests = (message: string, seconds?: number) =>
  new AppError(429, errorCodes.rateLimited, message, [], seconds);

/** 429: too many failed attempts for this account; the same request may work after `seconds` (Retry-After). */
export const tooManyAttempts = (seconds: number) =>
  tooManyRequests(
    `Too many failed attempts; try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    seconds,
  );

/** The database cannot be reached (restarting, failing over): try again shortly; nothing was wrong with the request. */
export const databaseUnavailable = () =>
  new AppError(503, errorCodes.databaseUnavailable, 'The database is unavailable; try again shortly.');

/** Where in the request a value broke its schema (Fastify's validation contexts). */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * A request value that breaks a rule of the contract: 422 with each rule's message, the same for a JSON body, a
 * query and multipart fields (lib/multipart.ts readUpload); a path that names nothing well-formed (an id like `0x10`
 * or `0002`) is a bad request, 400.
 */
export function requestInvalid(where: RequestPart, details: ErrorDetail[]): AppError {
  const status = where === 'params' ? 400 : 422;
  return new AppError(status, errorCodes.validationFailed, `The request ${where} is invalid.`, details);
}

/**
 * 422 of an upload without a file part: `message` says so (uploadMessages.noFileSent or noFileInUpload), the
 * detail what to choose.
 */
export const noFile = (message: string, choose: string) =>
  unprocessable(message, [{ path: '/file', code: 'required', message: choose }]);
