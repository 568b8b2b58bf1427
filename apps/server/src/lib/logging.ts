import { randomUUID } from 'node:crypto';
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino from 'pino';

/**
 * Every capability a URL can carry, in one list (decision 0046): whoever adds a URL that is its own credential adds
 * it here, and no log line of either origin shows it. Path capabilities are the segment after one of these prefixes.
 */
export const capabilityPaths = [
  // Play tokens (2 h) on the play origin.
  '/p/',
  // Shared URLs of a user's game files (2-8 h, decision 0037) on the play origin.
  '/s/',
  // Image preview grants (1-2 days, decision 0038) on the app's origin.
  '/api/previews/',
] as const;

/** Query parameters that are a capability: download tickets, reset and verification links' tokens, any bearer token. */
export const capabilityParameters = ['ticket', 'token', 'access_token'] as const;

const redacted = '[redacted]';

/**
 * The prefixes as one pattern, matched as a router or a sloppy client might spell them: any case, repeated slashes
 * (`//p//<token>` is a 404, whose log line would otherwise show the token).
 */
const capabilityPath = new RegExp(
  `^(${capabilityPaths
    .map((prefix) => prefix.split('/').filter(Boolean).join('/+'))
    .map((inner) => `/+${inner}/+`)
    .join('|')})[^/?#]*`,
  'i',
);

/** A query parameter's name as the server reads it (percent-decoded, `+` a space), lower case; undefined if malformed. */
function parameterName(pair: string): string | undefined {
  const name = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return undefined;
  }
}

const secretNames = new Set<string>(capabilityParameters);

/** A URL as the log may show it: every capability (capabilityPaths, capabilityParameters) replaced by [redacted]. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(capabilityPath, `$1${redacted}`);
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const name = parameterName(pair);
      // A name that does not decode cannot be told apart from a capability's: its value goes too.
      return name === undefined || secretNames.has(name) ? `${pair.split('=', 1)[0]}=${redacted}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** A request that takes longer than this is logged at warn, whatever LOG_LEVEL asks for the rest (decision 0053). */
export const slowRequestMs = 1000;

/**
 * One line per request, when its answer has been sent, with `req` (method, URL without credentials, host,
 * address), `res.statusCode` and `responseTime` in ms, instead of Fastify's two lines (logging was 9% of an API
 * read's CPU and 22% of a play file's, decision 0040). Errors (a thrown error or a 5xx) are written at error and
 * slow requests at warn; every other request only at debug, when LOG_LEVEL asks for it (decision 0053). LOG_LEVEL=trace
 * adds an `incoming request` line as each request begins.
 */
class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.trace({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (reply.statusCode >= 500) reply.log.error(line, 'request completed');
    else if (reply.elapsedTime >= slowRequestMs) reply.log.warn(line, 'slow request');
    else reply.log.debug(line, 'request completed');
  }
}

/** Where log lines go: standard output, or a test's capture. */
export type LogDestination = pino.DestinationStream;

let standardOutput: LogDestination | undefined;

/**
 * Standard output, written asynchronously (a synchronous write per line, and the sleeps pino takes while
 * the pipe is full, were a fifth of an API read's CPU under load). Lines are written as soon as the previous write
 * is done, so a quiet server's lines appear at once and a busy one's go out together; pino flushes what is left
 * when the process exits. Both origins share it, so their lines never interleave mid-line.
 */
function logDestination(): LogDestination {
  return (standardOutput ??= pino.destination({ dest: 1, sync: false }));
}

/** An incoming X-Request-Id is kept when it is a plain short id (it reaches the logs and the answer). */
const acceptableRequestId = /^[\w.:@/+=-]{1,128}$/;

/**
 * The logger and request id options of both origins: one pino logger at `level`, request URLs without
 * credentials, Authorization and Cookie headers never written, and the request id taken from an incoming
 * `X-Request-Id` (else a new UUID). `echoRequestId` sends it back.
 */
export function loggingOptions(
  level: string,
  { destination = logDestination() }: { destination?: LogDestination | undefined } = {},
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'logController'> {
  return {
    logController: new RequestLog(),
    logger: {
      level,
      stream: destination,
      redact: {
        // busboyOptions: @fastify/multipart writes the request's headers at trace as it starts reading a form.
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          'busboyOptions.headers.authorization',
          'busboyOptions.headers.cookie',
        ],
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
  // A callback hook: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
}
