import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorCodes, type ErrorDetail, type ErrorEnvelope } from '@reskin/contract';
import { isDataException, isDatabaseUnavailable } from '../db/database';
import { AppError, databaseUnavailable } from '../lib/errors';
import {
  StorageFullError,
  StorageUnavailableError,
  fullVolumeOf,
  isTaggedStorageFault,
} from '../storage/storage-faults';

const namesByStatus: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  406: 'NotAcceptableError',
  409: 'ConflictError',
  413: 'PayloadTooLargeError',
  414: 'URITooLongError',
  415: 'UnsupportedMediaTypeError',
  416: 'RangeNotSatisfiableError',
  422: 'UnprocessableEntityError',
  429: 'TooManyRequestsError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
  507: 'InsufficientStorageError',
};

/** The error envelope (DESIGN.md) of a status, with the name that goes with it. */
export function envelope(
  statusCode: number,
  message: string,
  code?: string,
  details: ErrorDetail[] = [],
): ErrorEnvelope {
  const name = namesByStatus[statusCode] ?? (statusCode >= 500 ? 'InternalServerError' : 'BadRequestError');
  return { error: { statusCode, name, message, ...(code ? { code } : {}), details } };
}

/** The envelope of an error thrown on purpose (AppError). */
function appErrorEnvelope(error: AppError): ErrorEnvelope {
  const body = envelope(error.statusCode, error.message, error.code, error.details);
  body.error.name = error.errorName;
  if (error.retryAfterSeconds !== undefined) body.error.retryAfter = error.retryAfterSeconds;
  return body;
}

/** Turns every thrown error into the one error envelope, never leaking internals; both origins use it. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // Before the database's check: an object store refusing connections fails the same socket calls.
  const full = fullVolumeOf(error);
  if (full) {
    // The guard's refusal (a StorageFullError of its own), or a write that found no room (ENOSPC, SQLITE_FULL, ...)
    // where the guard did not refuse in time: 507, never 500.
    const refused = error instanceof StorageFullError && error.cause === undefined;
    request.log[refused ? 'warn' : 'error'](
      { err: error, volume: full },
      refused ? 'refused: a volume is low on space' : 'a volume is full',
    );
    return reply
      .status(507)
      .send(appErrorEnvelope(error instanceof StorageFullError ? error : new StorageFullError(full)));
  }
  if (error instanceof StorageUnavailableError || isTaggedStorageFault(error)) {
    request.log.warn({ err: error }, 'the file storage is unavailable');
    return reply
      .status(503)
      .send(
        appErrorEnvelope(error instanceof StorageUnavailableError ? error : new StorageUnavailableError()),
      );
  }
  if (isDatabaseUnavailable(error)) {
    // The database is restarting or failing over: the client may retry; the pool reconnects by itself.
    request.log.warn({ err: error }, 'the database is unavailable');
    return reply.status(503).send(appErrorEnvelope(databaseUnavailable()));
  }
  if (error instanceof AppError) {
    if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
    return reply.status(error.statusCode).send(appErrorEnvelope(error));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details: ErrorDetail[] = error.validation.map((issue) => ({
      path: issue.instancePath || '/',
      code: issue.keyword,
      message: issue.message ?? 'Invalid value.',
    }));
    const where = error.validationContext ?? 'body';
    // A path that names nothing well-formed (an id like `0x10` or `0002`) is a bad request, 400; a body,
    // query or header that breaks a rule of the contract stays 422 with the rule's message.
    const status = where === 'params' ? 400 : 422;
    return reply
      .status(status)
      .send(envelope(status, `The request ${where} is invalid.`, errorCodes.validationFailed, details));
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, 'response did not match its schema');
    return reply.status(500).send(envelope(500, 'Internal server error.'));
  }
  if (isDataException(error)) {
    // A request value the schema let through but the database cannot hold (e.g. /user/detail/2147483648).
    request.log.warn({ err: error }, 'the database refused a value of the request');
    return reply
      .status(400)
      .send(envelope(400, 'A value in the request is out of range or malformed.', 'BAD_REQUEST'));
  }
  const statusCode =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (statusCode >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(statusCode).send(envelope(statusCode, 'Internal server error.'));
  }
  // Fastify's own 4xx: bad JSON, body too large, unsupported media type, rate limit...
  const code = statusCode === 429 ? errorCodes.rateLimited : (error.code ?? 'BAD_REQUEST');
  return reply.status(statusCode).send(envelope(statusCode, error.message, code));
}

/** The error envelope for every thrown error and every unknown route of the app. */
export const errorEnvelopePlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(errorHandler);

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(
        envelope(404, `Route ${request.method} ${request.url.split('?')[0]} not found.`, errorCodes.notFound),
      );
  });
});
