import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters that carry a credential (download tickets; any token a client puts in a URL). */
const secretParameters = /([?&](?:ticket|token|access_token)=)[^&#]*/gi;
/** The play origin's capability token is the first path segment after /p/. */
const playTokenSegment = /^\/p\/[^/?#]+/;

/** A URL as the log may show it: play tokens and download tickets replaced by [redacted]. */
export function redactUrl(url: string): string {
  return url.replace(playTokenSegment, '/p/[redacted]').replace(secretParameters, '$1[redacted]');
}

/** An incoming X-Request-Id is kept when it is a plain short id (it reaches the logs and the answer). */
const acceptableRequestId = /^[\w.:@/+=-]{1,128}$/;

/**
 * The logger and request id options of both origins: one pino logger at `level`, request URLs without
 * credentials, Authorization and Cookie headers never written, and the request id taken from an incoming
 * `X-Request-Id` (else a new UUID). `echoRequestId` sends it back.
 */
export function loggingOptions(level: string): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'disableRequestLogging'> {
  return {
    // One line per request, written by logRequests when the answer is sent, instead of Fastify's two.
    disableRequestLogging: true,
    logger: {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
        censor: '[redacted]',
      },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && acceptableRequestId.test(incoming) ? incoming : randomUUID();
    },
  };
}

/** Answers every request with its id in `X-Request-Id`, so a client's report can be found in the log. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
}

/**
 * One `request completed` line per request, when its answer has been sent: `req` (method, URL without
 * credentials, host, address), `res.statusCode` and `responseTime` in ms (issue 15: Fastify's own request logging
 * writes two lines, and logging was 9% of an API read's CPU and 22% of a play file's). `routine` requests are
 * written at debug level when they succeed, as the play origin's file requests are: a game loads hundreds.
 * LOG_LEVEL=debug adds an `incoming request` line as each request begins.
 */
export function logRequests(app: FastifyInstance, { routine = false }: { routine?: boolean } = {}): void {
  // At debug level only (LOG_LEVEL=debug): a request as it begins, to follow one that does not end.
  app.addHook('onRequest', async (request) => request.log.debug({ req: request }, 'incoming request'));
  app.addHook('onResponse', async (request, reply) => {
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (routine && reply.statusCode < 400) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}
