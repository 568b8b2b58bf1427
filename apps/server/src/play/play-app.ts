import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { errorCodes } from '@reskin/contract';
import { parseByteRange } from '../lib/byte-ranges';
import { InvalidPathError, normaliseGamePath } from '../lib/game-paths';
import type { TrustProxy } from '../config';
import { echoRequestId, loggingOptions } from '../lib/logging';
import { envelope, errorHandler } from '../plugins/error-envelope';
import type { Storage } from '../storage/storage';
import type { PlayAccess } from './play-access';
import type { PlayFiles } from './play-files';
import type { PlayOrigins } from './play-origins';
import { encodePath } from './play-paths.service';
import type { PlayClaims, PlayTokens } from './play-tokens';

export interface PlayAppOptions {
  /** Which host serves which game (decision 0017). */
  origins: PlayOrigins;
  tokens: PlayTokens;
  /** Whether a valid link's user still may see it (issue 13): checked on every request, briefly cached. */
  access: PlayAccess;
  /** Which stored object a path serves in a view (briefly cached). */
  files: PlayFiles;
  storage: Storage;
  /**
   * PLAY_ACCEL_REDIRECT (local-disk storage only): behind nginx, answer a checked file with
   * `X-Accel-Redirect: <prefix><storage key>` and no body, so nginx sends the bytes from its internal location
   * (docs/operations.md). Unset: this app sends them.
   */
  accelRedirect?: string | undefined;
  logLevel: string;
  /** As the app's (TRUST_PROXY), so the play origin's logs show client addresses behind a proxy too. */
  trustProxy: TrustProxy;
}

/** The headers of every answer of the play origin (DESIGN.md "Play"). */
export const playHeaders = {
  'Content-Security-Policy': 'sandbox allow-scripts allow-same-origin allow-pointer-lock',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Access-Control-Allow-Origin': '*',
} as const;

/**
 * The headers of every answer of a game served cross-origin isolated (issue 24, decision 0022): with them its
 * document, inside a frame allowed `cross-origin-isolated` on an isolated app page, gets SharedArrayBuffer.
 * `credentialless` (not `require-corp`) so a game's own requests to other sites (a font, a CDN script) still
 * load, without cookies; `Cross-Origin-Resource-Policy: cross-origin` is in playHeaders already.
 */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
} as const;

/**
 * The play origin's headers that nginx must copy onto a file it sends for an X-Accel-Redirect (it keeps only
 * Content-Type and Cache-Control of its own accord): docs/operations.md and the play bench configure these.
 */
export const accelCopiedHeaders = [
  'ETag',
  'Content-Encoding',
  ...Object.keys(playHeaders),
  ...Object.keys(isolationHeaders),
  'X-Request-Id',
] as const;

/**
 * The play origin: a second Fastify app on PLAY_PORT that serves game content to the sandboxed frame at
 * `/p/<token>/<path>`. It never reads the session token; the capability token in the path is checked on
 * every request and limits it to one game (or version) and one view, and PlayAccess that its user still may see
 * it. Query strings are ignored.
 */
export function buildPlayApp({ origins, tokens, access, files, storage, accelRedirect, logLevel, trustProxy }: PlayAppOptions): FastifyInstance {
  // The token is one path segment of about 200 characters (a JWT), longer than Fastify's default limit.
  // The router's own refusals (a path that is no valid URL, a too long parameter) answer the envelope too.
  const app = Fastify({
    ...loggingOptions(logLevel, { routine: true }),
    trustProxy,
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: errorHandler,
  });
  echoRequestId(app);

  app.addHook('onSend', async (_request, reply) => {
    reply.headers(playHeaders);
  });

  app.get<{ Params: { token: string; '*': string } }>('/p/:token/*', async (request, reply) => {
    const claims = await tokens.verify(request.params.token);
    if (!claims) return reply.status(403).send(envelope(403, 'This play link is invalid or has expired.', errorCodes.forbidden));
    // With an origin per game, a game is served on its own host only, so it never shares another's storage.
    if (!origins.servesGame(request.host, claims.g)) {
      return reply.status(403).send(envelope(403, 'This play link belongs to another address: open the game again.', errorCodes.forbidden));
    }
    // The user may have been disabled, demoted or unassigned, or changed their password, since the link was made.
    if (!(await access.allows(claims))) {
      return reply.status(403).send(envelope(403, 'This play link no longer gives access: open the game again.', errorCodes.forbidden));
    }

    let path: string;
    try {
      path = normaliseGamePath(request.params['*']);
    } catch (error) {
      if (error instanceof InvalidPathError) return reply.status(404).send(envelope(404, 'No such file in this game.', errorCodes.notFound));
      throw error;
    }
    return serve(request, reply, claims, path, false);
  });

  async function serve(request: FastifyRequest, reply: FastifyReply, claims: PlayClaims, path: string, fresh: boolean): Promise<FastifyReply> {
    const { answer: file, kept } = await files.find(claims, path, { fresh });
    if (file === 'no-file') return reply.status(404).send(envelope(404, 'No such file in this game.', errorCodes.notFound));
    if (file === 'no-version') return reply.status(403).send(envelope(403, 'This play link is invalid or has expired.', errorCodes.forbidden));

    reply.header('ETag', file.etag).header('Cache-Control', 'private, no-cache');
    if (file.isolated) reply.headers(isolationHeaders);
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    if (accelRedirect !== undefined) {
      // nginx sends the file (and answers ranges) from its internal location; the body stays empty.
      reply.header('Content-Type', file.contentType);
      if (file.contentEncoding) reply.header('Content-Encoding', file.contentEncoding);
      return reply.header('X-Accel-Redirect', accelRedirect + encodePath(file.key)).send();
    }

    // A seek of an audio or video element asks for a range (206); a pre-compressed file is always sent whole.
    const ifRange = request.headers['if-range'];
    const rangeHeader = file.contentEncoding || (ifRange !== undefined && ifRange !== file.etag) ? undefined : request.headers.range;
    let range: ReturnType<typeof parseByteRange>;
    if (rangeHeader !== undefined) {
      const info = await storage.stat(file.key);
      range = info ? parseByteRange(rangeHeader, info.size) : undefined;
      if (info && range === 'unsatisfiable') {
        const refusal = envelope(416, 'The requested range lies outside the file.', errorCodes.rangeNotSatisfiable);
        return reply.status(416).header('Content-Range', `bytes */${info.size}`).send(refusal);
      }
    }
    const object = await storage.get(file.key, range === 'unsatisfiable' ? undefined : range);
    if (!object) {
      // A kept lookup of a file replaced meanwhile (its old object is deleted): look again.
      if (kept) return serve(request, reply, claims, path, true);
      if (file.uploaded) {
        request.log.error({ key: file.key }, 'a stored file is missing');
        return reply.status(404).send(envelope(404, 'This file is missing from storage.', errorCodes.notFound));
      }
      return reply.status(404).send(envelope(404, 'This file has not been generated yet: press Gen.', errorCodes.notFound));
    }
    // Sent as stored: a pre-compressed build keeps its bytes and length and gets Content-Encoding (this app
    // never compresses), so the browser decodes it for the engine's loader.
    if (file.contentEncoding) reply.header('Content-Encoding', file.contentEncoding);
    else reply.header('Accept-Ranges', 'bytes');
    reply.header('Content-Type', file.contentType);
    if (object.range) {
      const { start, end } = object.range;
      reply.status(206).header('Content-Range', `bytes ${start}-${end}/${object.size}`);
      return reply.header('Content-Length', end - start + 1).send(object.stream);
    }
    return reply.header('Content-Length', object.size).send(object.stream);
  }

  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send(envelope(404, 'Not found.', errorCodes.notFound));
  });

  // The API's error handler: 503 while the database is unreachable, the envelope for the rest, no internals.
  app.setErrorHandler(errorHandler);

  return app;
}
