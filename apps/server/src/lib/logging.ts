import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';

/** Query parameters that carry a credential (download tickets; any token a client puts in a URL). */
const secretParameters = /([?&](?:ticket|token|access_token)=)[^&#]*/gi;
/** The play origin's capability token is the first path segment after /p/. */
const playTokenSegment = /^\/p\/[^/?#]+/;

/** A URL as the log may show it: play tokens and download tickets replaced by [redacted]. */
export function redactUrl(url: string): string {
  return url.replace(playTokenSegment, '/p/[redacted]').replace(secretParameters, '$1[redacted]');
}

/**
 * One `request completed` line per request, when its answer has been sent, with `req` (method, URL without
 * credentials, host, address), `res.statusCode` and `responseTime` in ms, instead of Fastify's two lines (issue 15:
 * logging was 9% of an API read's CPU and 22% of a play file's). `routine` requests (the play origin's files: a
 * game loads hundreds) are written at debug level when they succeed. LOG_LEVEL=debug adds an `incoming request`
 * line as each request begins.
 */
class RequestLog extends LogController {
  constructor(private readonly routine: boolean) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (this.routine && reply.statusCode < 400) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}

let standardOutput: pino.DestinationStream | undefined;

/**
 * Standard output, written asynchronously (issue 15: a synchronous write per line, and the sleeps pino takes while
 * the pipe is full, were a fifth of an API read's CPU under load). Lines are written as soon as the previous write
 * is done, so a quiet server's lines appear at once and a busy one's go out together; pino flushes what is left
 * when the process exits. Both origins share it, so their lines never interleave mid-line.
 */
function logDestination(): pino.DestinationStream {
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
  { routine = false }: { routine?: boolean } = {},
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'logController'> {
  return {
    logController: new RequestLog(routine),
    logger: {
      level,
      stream: logDestination(),
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
  // A callback hook: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
}

