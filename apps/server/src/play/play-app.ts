import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { errorCodes } from '@reskin/contract';
import { parseByteRange } from '../lib/byte-ranges';
import { blankCopy } from '../lib/images/variants';
import { InvalidPathError, normaliseGamePath } from '../lib/game-paths';
import type { TrustProxy } from '../config';
import { echoRequestId, loggingOptions, type LogDestination } from '../lib/logging';
import { envelope, errorHandler } from '../plugins/error-envelope';
import type { Storage } from '../storage/storage';
import type { Metrics } from '../modules/metrics/metrics';
import { isCompressibleType } from '../lib/content-types';
import type { PlayAccess } from './play-access';
import {
  chosenEncoding,
  encodedEtag,
  ifNoneMatch,
  maxCompressedInput,
  maxKeptIdentity,
  PlayBodies,
  type PlayEncoding,
} from './play-bodies';
import type { PlayFile, PlayFiles } from './play-files';
import type { PlayOrigins } from '../modules/play-paths/play-origins';
import type { PlayUsage } from './play-usage';
import { encodePath } from '../modules/play-paths/play-paths.service';
import type { PlayClaims, PlayTokens } from '../modules/play-paths/play-tokens';

export interface PlayAppOptions {
  /** Which host serves which game (decision 0017). */
  origins: PlayOrigins;
  tokens: PlayTokens;
  /** Whether a valid link's user still may see it: checked on every request, briefly cached. */
  access: PlayAccess;
  /** Which stored object a path serves in a view (briefly cached). */
  files: PlayFiles;
  storage: Storage;
  /** Compressed answers and small files kept in memory (decision 0037); undefined: none kept (tests' default). */
  bodies?: PlayBodies | undefined;
  /** The record of which files plays load (decision 0023); undefined with PLAY_USAGE=false. */
  usage?: PlayUsage | undefined;
  /**
   * PLAY_ACCEL_REDIRECT (local-disk storage only): behind nginx, answer a checked file with
   * `X-Accel-Redirect: <prefix><storage key>` and no body, so nginx sends the bytes from its internal location
   * (docs/operations.md). Unset: this app sends them.
   */
  accelRedirect?: string | undefined;
  /** The app's metrics (GET /api/metrics): bytes sent, lookups kept, storage and database errors. */
  metrics?: Metrics | undefined;
  logLevel: string;
  /** Where its log lines go: the app's (standard output unless a test captures them). */
  logDestination?: LogDestination | undefined;
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
 * Whether a request is part of a play, for the usage record (decision 0023): the frame's document (which starts
 * a play: a document or frame navigation, or the game's start file from a client that does not say), or what
 * the game's page asks for on its own origin. The app's own pages show images from the play origin too (the
 * workbench's and the files screen's previews): the browser marks those as another site's, and they are no play.
 * A client that sends no Fetch Metadata (an old browser, a tool) is counted.
 */
export function playedRequest(
  site: string | undefined,
  dest: string | undefined,
  startFile: boolean,
): 'starts' | 'plays' | undefined {
  if (dest === 'document' || dest === 'iframe' || dest === 'frame' || (dest === undefined && startFile))
    return 'starts';
  return site === undefined || site === 'same-origin' || site === 'none' ? 'plays' : undefined;
}

/**
 * The Content-Security-Policy of every SVG the play origin answers, in every view (decision 0019), instead of the
 * sandbox policy: opened as a page (a new tab, an `<object>`), an SVG is a document, and the sandbox allows scripts.
 * This one allows none, nor any fetch: only inline styles and embedded `data:` images (a watermarked SVG is one).
 * An `<img>` or a canvas draws an SVG without scripts anyway, so games lose nothing.
 */
export const svgContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** An SVG document, by its served type (a pre-compressed `.svg.gz` included). */
const isSvg = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase() === 'image/svg+xml';

/**
 * The headers of every answer of a game served cross-origin isolated (decision 0022): with them its
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
 * Whether the play origin sends a request of the game's own page to the user's shared URL of a file (decision 0037):
 * a same-origin subresource that resolves no relative URL against its own address. Documents, frames, workers and
 * style sheets (whose relative URLs would then resolve under /s/) stay where they were asked for, and so do module
 * scripts (`Sec-Fetch-Mode: cors`; their imports resolve against the script's address). A client that sends no
 * Fetch Metadata (a tool, an old browser), or another site's page (the app's previews), is answered in place.
 */
function redirectsToShared(
  site: string | undefined,
  dest: string | undefined,
  mode: string | undefined,
): boolean {
  if (site !== 'same-origin') return false;
  switch (dest) {
    case 'image':
    case 'audio':
    case 'video':
    case 'track':
    case 'font':
    case 'empty':
      return true;
    case 'script':
      return mode === 'no-cors';
    default:
      return false;
  }
}

/** The content id of a file's shared URL: its ETag without the quotes (from its storage key and play settings). */
const contentIdOf = (etag: string) => etag.slice(1, -1);

/** The two views whose files a shared URL serves (decision 0037); an image's differ, so its URL names its view. */
type SharedView = 'watermark' | 'skeleton';
const sharedViewTags = { watermark: 'w', skeleton: 's' } as const satisfies Record<SharedView, string>;

/** The shared view an image's copy is served in: a version's unreplaced image is its watermarked copy. */
const sharedViewOf = (claims: PlayClaims, file: PlayFile): SharedView | undefined =>
  file.uploaded ? undefined : claims.view === 'skeleton' ? 'skeleton' : 'watermark';

/** A shared URL's content id part: `<id>` for a file the same in both views, `<id>.<view tag>` for an image's copy. */
function parseSharedCid(cid: string): { id: string; view: SharedView | undefined } {
  const [id = '', tag] = cid.split('.');
  const view = (Object.keys(sharedViewTags) as SharedView[]).find((name) => sharedViewTags[name] === tag);
  return { id, view };
}

/**
 * The play origin: a second Fastify app on PLAY_PORT that serves game content to the sandboxed frame at
 * `/p/<token>/<path>`. It never reads the session token; the capability token in the path is checked on
 * every request and limits it to one game (or version) and one view, and PlayAccess that its user still may see
 * it. Query strings are ignored. Files that are the same in every view are also served at
 * `/s/<shared token>/<content id>/<path>` (decision 0037), where the game's own requests for them are redirected.
 */
export function buildPlayApp({
  origins,
  tokens,
  access,
  files,
  storage,
  bodies = new PlayBodies(0),
  usage,
  accelRedirect,
  metrics,
  logLevel,
  logDestination,
  trustProxy,
}: PlayAppOptions): FastifyInstance {
  // The token is one path segment of about 200 characters (a JWT), longer than Fastify's default limit.
  // The router's own refusals (a path that is no valid URL, a too long parameter) answer the envelope too.
  const app = Fastify({
    ...loggingOptions(logLevel, { destination: logDestination }),
    trustProxy,
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: errorHandler,
  });
  echoRequestId(app);
  metrics?.countPlayBytes(app);
  metrics?.countFaults(app);

  app.addHook('onSend', (_request, reply, payload, done) => {
    // An SVG's own policy (set by serve) stays.
    const policy = reply.getHeader('Content-Security-Policy');
    reply.headers(playHeaders);
    if (policy !== undefined) reply.header('Content-Security-Policy', policy);
    done(null, payload);
  });

  const invalidLink = () => envelope(403, 'This play link is invalid or has expired.', errorCodes.forbidden);
  const otherAddress = () =>
    envelope(403, 'This play link belongs to another address: open the game again.', errorCodes.forbidden);
  const noAccess = () =>
    envelope(403, 'This play link no longer gives access: open the game again.', errorCodes.forbidden);
  const noFile = () => envelope(404, 'No such file in this game.', errorCodes.notFound);

  /** The normalised path of the request, or undefined when it is none a game can have. */
  function pathOf(raw: string): string | undefined {
    try {
      return normaliseGamePath(raw);
    } catch (error) {
      if (error instanceof InvalidPathError) return undefined;
      throw error;
    }
  }

  app.get<{ Params: { token: string; '*': string } }>('/p/:token/*', async (request, reply) => {
    const verified = await tokens.verify(request.params.token);
    if (!verified) return reply.status(403).send(invalidLink());
    const { claims } = verified;
    // With an origin per game, a game is served on its own host only, so it never shares another's storage.
    if (!origins.servesGame(request.host, claims.g)) return reply.status(403).send(otherAddress());
    // The user may have been disabled, demoted or unassigned, or changed their password, since the link was made.
    if (!(await access.allows(claims))) return reply.status(403).send(noAccess());

    const path = pathOf(request.params['*']);
    if (path === undefined) return reply.status(404).send(noFile());
    return serve(request, reply, claims, path, { fresh: false, linkExpiresAt: verified.expiresAt });
  });

  /**
   * A file the same in every view, at the user's shared URL (decision 0037): served when its content id is the
   * file's current one in the watermarked or the skeleton view, which every user of the game may see; a content
   * id gone stale (the file changed since the redirect) sends a file that is no image to its current one.
   */
  app.get<{ Params: { token: string; cid: string; '*': string } }>(
    '/s/:token/:cid/*',
    async (request, reply) => {
      const shared = tokens.verifyShared(request.params.token);
      if (!shared) return reply.status(403).send(invalidLink());
      if (!origins.servesGame(request.host, shared.g)) return reply.status(403).send(otherAddress());
      const path = pathOf(request.params['*']);
      if (path === undefined) return reply.status(404).send(noFile());

      // Both views need what the watermarked view needs (only the original asks more): one check answers for both.
      const watermark = { ...shared, view: 'watermark' } as const satisfies PlayClaims;
      if (!(await access.allows(watermark))) return reply.status(403).send(noAccess());
      const { id, view } = parseSharedCid(request.params.cid);
      const inViews = (view ? [view] : (['watermark', 'skeleton'] as const)).map(
        (name) => ({ ...shared, view: name }) as const satisfies PlayClaims,
      );
      for (const claims of inViews) {
        const { answer } = await files.find(claims, path);
        if (typeof answer !== 'string' && answer.shared && contentIdOf(answer.etag) === id)
          return serve(request, reply, claims, path, { fresh: false });
      }
      // A content id gone stale (the file changed since the redirect): it moves to the current URL of its view,
      // read afresh so that servers whose kept lookups differ cannot send it back and forth.
      const current: PlayFile[] = [];
      for (const claims of inViews) {
        const { answer } = await files.find(claims, path, { fresh: true });
        if (typeof answer !== 'string' && answer.shared) current.push(answer);
      }
      const [first, second] = current;
      const moved =
        view !== undefined
          ? current.length === 1 && !first!.uploaded
          : current.length === 2 && first!.uploaded && first!.etag === second!.etag;
      if (moved) {
        return reply
          .status(302)
          .header('Cache-Control', 'no-store')
          .header('Location', sharedUrl(request.params.token, first!.etag, path, view))
          .send();
      }
      return reply
        .status(404)
        .send(
          envelope(
            404,
            'This file has changed since the game asked for it: reload the game.',
            errorCodes.notFound,
          ),
        );
    },
  );

  const sharedUrl = (token: string, etag: string, path: string, view: SharedView | undefined) =>
    `/s/${token}/${contentIdOf(etag)}${view ? `.${sharedViewTags[view]}` : ''}/${encodePath(path)}`;

  /** The encoding of the answer: br or gzip for a compressible file asked for whole, else the stored bytes. */
  function encodingOf(request: FastifyRequest, file: PlayFile): PlayEncoding | undefined {
    if (file.contentEncoding || request.headers.range !== undefined) return undefined;
    return chosenEncoding(request.headers['accept-encoding']);
  }

  /**
   * Answers a file of a view. `linkExpiresAt` (the view link's expiry, on /p/) lets the answer be a redirect to the
   * shared URL; without it (on /s/) the file is answered in place. Each request is counted once (not again when a
   * replaced file is looked up afresh): a file no version can replace where its bytes are answered, on /s/ when
   * redirected (the browser may keep that redirect, so later plays ask /s/ without asking /p/); others on /p/.
   */
  async function serve(
    request: FastifyRequest<{ Params: { token: string } }>,
    reply: FastifyReply,
    claims: PlayClaims,
    path: string,
    { fresh, linkExpiresAt }: { fresh: boolean; linkExpiresAt?: number | undefined },
  ): Promise<FastifyReply> {
    const { answer: file, kept } = await files.find(claims, path, { fresh });
    metrics?.playLookup(kept);
    if (file === 'no-file') return reply.status(404).send(noFile());
    if (file === 'no-version') return reply.status(403).send(invalidLink());
    const headers = request.headers;
    const onViewLink = linkExpiresAt !== undefined;
    // The game's own request for a file the same in every view goes to the user's one URL of it (decision 0037),
    // unless it is small: answered from memory (PlayBodies), in place it costs a round trip less on every play and
    // at most its own bytes more on a view switch (decision 0065).
    const redirected =
      onViewLink &&
      file.shared &&
      file.size > maxKeptIdentity &&
      redirectsToShared(headers['sec-fetch-site'], headers['sec-fetch-dest'], headers['sec-fetch-mode']);
    // A file no version can replace has one object in every view: its redirect may be kept (decision 0065).
    const keepable = redirected && !file.replaceable;
    const now = Date.now();
    if (usage && !fresh && (onViewLink ? !keepable : !file.replaceable)) {
      const played = playedRequest(headers['sec-fetch-site'], headers['sec-fetch-dest'], file.startFile);
      // A play that starts under a view link starts under the user's shared link too, where /s/ counts its files.
      const sharedLink = played === 'starts' && onViewLink ? tokens.signShared(claims, now) : undefined;
      if (played) usage.record(request.params.token, claims.g, file.fileId, played === 'starts', sharedLink);
    }
    if (redirected) {
      const location = sharedUrl(tokens.signShared(claims, now), file.etag, path, sharedViewOf(claims, file));
      reply.status(302).header('Location', location);
      // Never kept past the view link's or the shared link's end.
      const keptFor = keepable ? Math.min(linkExpiresAt, tokens.sharedExpiresAt(now)) - now : 0;
      if (keptFor < 1000) return reply.header('Cache-Control', 'no-store').send();
      // Kept per kind of request: the same path asked for as a document or a style sheet is answered in place.
      return reply
        .header('Cache-Control', `private, max-age=${Math.floor(keptFor / 1000)}`)
        .header('Vary', 'Sec-Fetch-Site, Sec-Fetch-Dest, Sec-Fetch-Mode')
        .send();
    }

    const compressible =
      !file.contentEncoding && file.blank === undefined && isCompressibleType(file.contentType);
    const encoding = compressible ? encodingOf(request, file) : undefined;
    const etag = encodedEtag(file.etag, encoding);
    reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
    // The stored and the compressed answer share the URL: caches keep them apart by Accept-Encoding.
    if (compressible) reply.header('Vary', 'Accept-Encoding');
    // On the 304 too: a browser updates a cached answer's headers from it.
    if (isSvg(file.contentType)) reply.header('Content-Security-Policy', svgContentSecurityPolicy);
    if (file.isolated) reply.headers(isolationHeaders);
    if (ifNoneMatch(headers['if-none-match'], etag)) return reply.status(304).send();
    if (file.blank) {
      // An image whose copies are not made yet (decision 0024): a blank of its size, never the original.
      const bytes = await blankCopy(file.blank.path, file.blank.width, file.blank.height);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', bytes.length)
        .send(bytes);
    }
    // Behind nginx too, a compressed answer comes from here (kept in memory after the first): nginx's gzip would
    // compress a pre-compressed build again, so its internal location has none (docs/operations.md).
    if (accelRedirect !== undefined && encoding === undefined) {
      // nginx sends the file (and answers ranges) from its internal location; the body stays empty.
      reply.header('Content-Type', file.contentType);
      if (file.contentEncoding) reply.header('Content-Encoding', file.contentEncoding);
      return reply.header('X-Accel-Redirect', accelRedirect + encodePath(file.key)).send();
    }
    // Kept in memory: a compressed answer, or a small file as stored (no storage read at all).
    const keptBody = bodies.get(file.key, encoding);
    if (keptBody !== undefined && (encoding !== undefined || headers.range === undefined)) {
      metrics?.playBody(true, encoding ?? 'identity');
      reply.header('Content-Type', file.contentType);
      if (encoding) reply.header('Content-Encoding', encoding);
      else if (!file.contentEncoding) reply.header('Accept-Ranges', 'bytes');
      else reply.header('Content-Encoding', file.contentEncoding);
      return reply.header('Content-Length', keptBody.length).send(keptBody);
    }

    // A seek of an audio or video element asks for a range (206); a pre-compressed file is always sent whole.
    const ifRange = headers['if-range'];
    const rangeHeader =
      file.contentEncoding || (ifRange !== undefined && ifRange !== file.etag) ? undefined : headers.range;
    let range: ReturnType<typeof parseByteRange>;
    if (rangeHeader !== undefined) {
      const info = await storage.stat(file.key);
      range = info ? parseByteRange(rangeHeader, info.size) : undefined;
      if (info && range === 'unsatisfiable') {
        const refusal = envelope(
          416,
          'The requested range lies outside the file.',
          errorCodes.rangeNotSatisfiable,
        );
        return reply.status(416).header('Content-Range', `bytes */${info.size}`).send(refusal);
      }
    }
    const object = await storage.get(file.key, range === 'unsatisfiable' ? undefined : range);
    if (!object) {
      // A lookup of a file replaced meanwhile (its old object is deleted), or of copies replaced by newer ones
      // since (decision 0024): look again.
      if (!fresh && (kept || !file.uploaded))
        return serve(request, reply, claims, path, { fresh: true, linkExpiresAt });
      if (file.uploaded) {
        request.log.error({ key: file.key }, 'a stored file is missing');
        return reply
          .status(404)
          .send(envelope(404, 'This file is missing from storage.', errorCodes.notFound));
      }
      return reply
        .status(404)
        .send(envelope(404, 'This file has not been generated yet: press Gen.', errorCodes.notFound));
    }
    // Only now: the refusals above (416, 404) answer the JSON envelope, which a file's type would make a 500.
    reply.header('Content-Type', file.contentType);
    if (encoding && !object.range && object.size <= maxCompressedInput) {
      // Compressed once per stored object and encoding, then kept (PlayBodies): the next answer costs no zlib.
      const body = await bodies.compress(file.key, encoding, object.stream, object.size);
      metrics?.playBody(false, encoding);
      return reply.header('Content-Encoding', encoding).header('Content-Length', body.length).send(body);
    }
    // Too big to compress here: the stored bytes, still under the encoded ETag (the same answer every time, so a
    // revalidation with it is right).
    // Sent as stored: a pre-compressed build keeps its bytes and length and gets Content-Encoding, so the browser
    // decodes it for the engine's loader.
    if (file.contentEncoding) reply.header('Content-Encoding', file.contentEncoding);
    else reply.header('Accept-Ranges', 'bytes');
    if (object.range) {
      const { start, end } = object.range;
      reply.status(206).header('Content-Range', `bytes ${start}-${end}/${object.size}`);
      return reply.header('Content-Length', end - start + 1).send(object.stream);
    }
    if (bodies.keeps && object.size <= maxKeptIdentity) {
      const body = await bodies.keepIdentity(file.key, object.stream);
      metrics?.playBody(false, 'identity');
      return reply.header('Content-Length', body.length).send(body);
    }
    return reply.header('Content-Length', object.size).send(object.stream);
  }

  // The counts left in memory are written once the last request is done (before the database closes).
  if (usage) app.addHook('onClose', async () => usage.close());

  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send(envelope(404, 'Not found.', errorCodes.notFound));
  });

  // The API's error handler: 503 while the database is unreachable, the envelope for the rest, no internals.
  app.setErrorHandler(errorHandler);

  return app;
}
