import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorCodes, type ErrorDetail, type ErrorEnvelope } from '@reskin/contract';
import { isDataException, isDatabaseUnavailable } from '../db/database';
import { AppError, databaseUnavailable, errorName, requestInvalid } from '../lib/errors';
import {
  StorageFullError,
  StorageUnavailableError,
  fullVolumeOf,
  isTaggedStorageFault,
} from '../storage/storage-faults';

/** The error envelope (DESIGN.md) of a status, with the name that goes with it. */
export function envelope(
  statusCode: number,
  message: string,
  code?: string,
  details: ErrorDetail[] = [],
): ErrorEnvelope {
  return { error: { statusCode, name: errorName(statusCode), message, ...(code ? { code } : {}), details } };
}

/** The envelope of an error thrown on purpose (AppError). */
function appErrorEnvelope(error: AppError): ErrorEnvelope {
  const body = envelope(error.statusCode, error.message, error.code, error.details);
  if (error.retryAfterSeconds !== undefined) body.error.retryAfter = error.retryAfterSeconds;
  return body;
}

/** The message of every 5xx the server did not mean: nothing of the failure leaves the server. */
const internalError = 'Internal server error.';

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
    const invalid = requestInvalid(error.validationContext ?? 'body', details);
    return reply.status(invalid.statusCode).send(appErrorEnvelope(invalid));
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, 'response did not match its schema');
    return reply.status(500).send(envelope(500, internalError));
  }
  if (isDataException(error)) {
    // A request value the schema let through but the database cannot hold (e.g. /user/detail/2147483648).
    request.log.warn({ err: error }, 'the database refused a value of the request');
    return reply
      .status(400)
      .send(envelope(400, 'A value in the request is out of range or malformed.', errorCodes.badRequest));
  }
  const statusCode =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (statusCode >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(statusCode).send(envelope(statusCode, internalError));
  }
  // Fastify's own 4xx (body too large, unsupported media type, ...) keep the framework's code (FST_ERR_...).
  const code = statusCode === 429 ? errorCodes.rateLimited : (error.code ?? errorCodes.badRequest);
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
