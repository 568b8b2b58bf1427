import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { copyFormatOf, errorCodes, fileKindOf } from '@reskin/contract';
import { parseByteRange } from '../lib/byte-ranges';
import { servedAs } from '../lib/content-types';
import { InvalidPathError, normaliseGamePath } from '../lib/game-paths';
import type { TrustProxy } from '../config';
import { echoRequestId, loggingOptions } from '../lib/logging';
import { variantKey } from '../lib/variants';
import type { GamesRepository } from '../modules/games/games.repository';
import type { VersionsRepository } from '../modules/versions/versions.repository';
import { envelope, errorHandler } from '../plugins/error-envelope';
import type { Storage } from '../storage/storage';
import type { PlayAccess } from './play-access';
import type { PlayOrigins } from './play-origins';
import type { PlayClaims, PlayTokens } from './play-tokens';

export interface PlayAppOptions {
  /** Which host serves which game (decision 0017). */
  origins: PlayOrigins;
  tokens: PlayTokens;
  /** Whether a valid link's user still may see it (issue 13): checked on every request, briefly cached. */
  access: PlayAccess;
  games: GamesRepository;
  versions: VersionsRepository;
  storage: Storage;
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

/** Text is served as UTF-8, so games with non-ASCII text show it right. */
function withCharset(contentType: string): string {
  const textual = contentType.startsWith('text/') || contentType === 'application/json' || contentType === 'image/svg+xml';
  return textual ? `${contentType}; charset=utf-8` : contentType;
}

/**
 * Which stored object a view serves for a game file (DESIGN.md "Play": the three views of a game). Only an
 * image (contract `fileKindOf`: an image format with a pixel size) has copies.
 */
function storageKeyFor(view: PlayClaims['view'], file: { path: string; storageKey: string; width: number | null }): string {
  if (view === 'original' || fileKindOf(file) !== 'image') return file.storageKey;
  // A version's own view falls back to the watermarked view for files it has not replaced.
  return variantKey(file.storageKey, view === 'skeleton' ? 'skeleton' : 'watermark');
}

/**
 * The play origin: a second Fastify app on PLAY_PORT that serves game content to the sandboxed frame at
 * `/p/<token>/<path>`. It never reads the session token; the capability token in the path is checked on
 * every request and limits it to one game (or version) and one view, and PlayAccess that its user still may see
 * it. Query strings are ignored.
 */
export function buildPlayApp({ origins, tokens, access, games, versions, storage, logLevel, trustProxy }: PlayAppOptions): FastifyInstance {
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
    // Only the game the token names is reachable.
    const file = await games.findFileByPath(claims.g, path);
    if (!file) return reply.status(404).send(envelope(404, 'No such file in this game.', errorCodes.notFound));

    let key = storageKeyFor(claims.view, file);
    if (claims.view === 'version') {
      // The version's replacement of this file, if it has one and the version still belongs to this game.
      const version = claims.v ? await versions.findById(claims.v) : undefined;
      if (!version || version.gameId !== claims.g) {
        return reply.status(403).send(envelope(403, 'This play link is invalid or has expired.', errorCodes.forbidden));
      }
      const replacement = await versions.findFile(version.id, file.fileId);
      if (replacement) key = replacement.storageKey;
    }
    // Only a generated copy can be missing in the ordinary course (not generated yet).
    const uploaded = key === file.storageKey || key !== storageKeyFor(claims.view, file);
    const etag = `"${createHash('sha1').update(key).digest('base64url')}"`;
    reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();

    // A seek of an audio or video element asks for a range (206); a pre-compressed file is always sent whole.
    const served = servedAs(file.path);
    const rangeHeader = served.contentEncoding || (request.headers['if-range'] !== undefined && request.headers['if-range'] !== etag) ? undefined : request.headers.range;
    let range: ReturnType<typeof parseByteRange>;
    if (rangeHeader !== undefined) {
      const info = await storage.stat(key);
      range = info ? parseByteRange(rangeHeader, info.size) : undefined;
      if (info && range === 'unsatisfiable') {
        const refusal = envelope(416, 'The requested range lies outside the file.', errorCodes.rangeNotSatisfiable);
        return reply.status(416).header('Content-Range', `bytes */${info.size}`).send(refusal);
      }
    }
    const object = await storage.get(key, range === 'unsatisfiable' ? undefined : range);
    if (!object) {
      if (uploaded) {
        request.log.error({ key }, 'a stored file is missing');
        return reply.status(404).send(envelope(404, 'This file is missing from storage.', errorCodes.notFound));
      }
      return reply.status(404).send(envelope(404, 'This file has not been generated yet: press Gen.', errorCodes.notFound));
    }
    // Sent as stored: a pre-compressed build keeps its bytes and length and gets Content-Encoding (this app
    // never compresses), so the browser decodes it for the engine's loader.
    if (served.contentEncoding) reply.header('Content-Encoding', served.contentEncoding);
    else reply.header('Accept-Ranges', 'bytes');
    // A generated copy has the type it was written in: a BMP's or an icon's copies are PNG.
    const contentType = uploaded ? served.contentType : (copyFormatOf(file.path)?.mimeType ?? served.contentType);
    reply.type(withCharset(contentType));
    if (object.range) {
      const { start, end } = object.range;
      reply.status(206).header('Content-Range', `bytes ${start}-${end}/${object.size}`);
      return reply.header('Content-Length', end - start + 1).send(object.stream);
    }
    return reply.header('Content-Length', object.size).send(object.stream);
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send(envelope(404, 'Not found.', errorCodes.notFound));
  });

  // The API's error handler: 503 while the database is unreachable, the envelope for the rest, no internals.
  app.setErrorHandler(errorHandler);

  return app;
}
