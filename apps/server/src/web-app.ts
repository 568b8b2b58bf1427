import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import helmet from 'helmet';
import { errorCodes, playScreenPathList } from '@reskin/contract';
import { AppError } from './lib/errors';
import { isolationHeaders } from './play/play-app';

/**
 * Helmet's headers on every answer, its middleware made once (@fastify/helmet made a new one, parsing the CSP
 * again, for every request: 3% of an API read's CPU).
 */
export function addSecurityHeaders(app: FastifyInstance, playOrigin: string): void {
  const securityHeaders = helmet({
    contentSecurityPolicy: { directives: contentSecurityPolicy(playOrigin) },
    frameguard: { action: 'deny' },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) =>
      done(error instanceof Error ? error : undefined),
    ),
  );
}

/**
 * The app origin's Content-Security-Policy: only the app's own scripts and styles, game content framed (and
 * its images and sounds shown) from the play origin only (every game's, with per-game origins), and no site
 * may frame the app.
 */
function contentSecurityPolicy(playOrigin: string): Record<string, string[] | null> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:', playOrigin],
    mediaSrc: ["'self'", 'blob:', playOrigin],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    frameSrc: [playOrigin],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Helmet's default would move the play origin to https, which a plain-http deployment does not have.
    upgradeInsecureRequests: null,
  };
}

/**
 * The game a request for index.html opens in a play screen (the contract's playScreenPaths, the game in
 * `?gameId=`), or undefined for any other page.
 */
export function playScreenGame(url: string): number | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://app.invalid');
  } catch {
    return undefined;
  }
  const pathname =
    parsed.pathname.length > 1 && parsed.pathname.endsWith('/')
      ? parsed.pathname.slice(0, -1)
      : parsed.pathname;
  if (!playScreenPathList.includes(pathname)) return undefined;
  const raw = parsed.searchParams.get('gameId') ?? '';
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 && String(id) === raw ? id : undefined;
}

/**
 * Serves the built web app: content-hashed files under /assets/ cached for a year (with the .br and .gz copies
 * made at build time), and index.html, read once at start so this server keeps serving the build whose
 * assets it knows, for `/` and every client route (`no-cache`). Paths under /api and /assets never get the page.
 * A play screen of a game served isolated is itself served cross-origin isolated (COOP same-origin, COEP
 * credentialless: decision 0022), so the game's frame can be; every other page stays as it was.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  isolatedGame: (gameId: number) => Promise<boolean>,
): Promise<void> {
  const indexFile = join(distDir, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  if (index) {
    await app.register(fastifyStatic, {
      root: join(distDir, 'assets'),
      prefix: '/assets/',
      wildcard: false,
      globIgnore: ['**/*.br', '**/*.gz'],
      preCompressed: true,
      maxAge: '365d',
      immutable: true,
    });
  }
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.url.startsWith('/assets/')) {
      throw new AppError(404, errorCodes.notFound, `Route GET ${request.url.split('?')[0]} not found.`);
    }
    if (!index) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    const gameId = playScreenGame(request.url);
    if (gameId !== undefined && (await isolatedGame(gameId))) reply.headers(isolationHeaders);
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(index);
  });
}
