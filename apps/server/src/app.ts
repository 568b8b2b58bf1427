import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorCodes, limits, publicConfigSchema } from '@reskin/contract';
import type { Config } from './config';
import { createDatabase, keepStatistics, migrateToLatest, waitForDatabase, type Db } from './db/database';
import { AppError } from './lib/errors';
import { echoRequestId, loggingOptions, type LogDestination } from './lib/logging';
import { discardUnreadBody } from './lib/multipart';
import { responseSerializerCompiler } from './lib/response-serializer';
import { adminRoutes } from './modules/admin/admin.routes';
import { atlasesRoutes } from './modules/atlases/atlases.routes';
import { versionFramesRoutes } from './modules/versions/sheets/version-frames.routes';
import { fileUsageRoutes } from './modules/file-usage/file-usage.routes';
import type { GameGeneration } from './modules/games/game-generation';
import { gamesRoutes } from './modules/games/games.routes';
import { healthRoutes } from './modules/health/health.routes';
import { helperFilesRoutes } from './modules/helper-files/helper-files.routes';
import type { InboxService } from './modules/inbox/inbox.service';
import { inboxRoutes } from './modules/inbox/inbox.routes';
import { legalRoutes } from './modules/legal/legal.routes';
import type { MailService } from './modules/mail/mail.service';
import { mailRoutes } from './modules/mail/mail.routes';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { previewsRoutes } from './modules/previews/previews.routes';
import { reviewRoutes } from './modules/review/review.routes';
import { userGamesRoutes } from './modules/user-games/user-games.routes';
import { usersRoutes } from './modules/users/users.routes';
import { versionHistoryRoutes } from './modules/version-history/version-history.routes';
import { versionBatchRoutes } from './modules/versions/version-batch.routes';
import { versionsRoutes } from './modules/versions/versions.routes';
import { buildPlayApp } from './play/play-app';
import { playPathsRoutes } from './modules/play-paths/play-paths.routes';
import type { PlayUsage } from './play/play-usage';
import { authPlugin } from './plugins/auth';
import { errorEnvelopePlugin, errorHandler } from './plugins/error-envelope';
import { openapiPlugin } from './openapi';
import { rateLimitOptions } from './plugins/rate-limit';
import { xsrfPlugin } from './plugins/xsrf';
import { seedOnStart } from './seed/seed';
import { createServices, type Services } from './services';
import { openStorage } from './storage/create-storage';
import { addSecurityHeaders, registerWebApp } from './web-app';

export interface App {
  app: FastifyInstance;
  /** The play origin (DESIGN.md "Play"), to listen on PLAY_PORT. */
  playApp: FastifyInstance;
  database: Db;
  /** The background generation jobs ("Gen."); `idle()` waits for those running (tests). */
  generation: GameGeneration;
  /** The play origin's record of loaded files (decision 0023); `flush()` writes its counts now (tests). Undefined when off. */
  playUsage: PlayUsage | undefined;
  /**
   * Mail (decision 0035): `mailInboxEvents(ids)` mails new inbox events (the review side's onEventsAdded hook),
   * `tick()` runs one round of the worker and `settled()` waits for work requests left running (tests).
   */
  mail: MailService;
  /** The inbox: `inbox.onEventsAdded` takes after-commit listeners of new events (mail; tests). */
  inbox: InboxService;
  /** The start-up's recomposition of sheets left behind (decision 0046, 0049), running in the background: how many. */
  sheetsRecovered: Promise<number>;
}

/**
 * Builds the whole server without listening: opens the database, runs the migrations, builds the services
 * (services.ts), seeds what the configuration asks for, and registers plugins and routes. Tests and server.ts
 * both use it.
 */
export async function buildApp(
  config: Config,
  { logDestination }: { logDestination?: LogDestination } = {},
): Promise<App> {
  const app = Fastify({
    ...loggingOptions(config.logLevel, { destination: logDestination }),
    // Bodies are small JSON documents; uploads (later) stream through multipart with their own limits.
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Image preview grants (decision 0038) name a storage key: longer than the router's default of 100.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    // The router's own refusals (a path that is no valid URL, a parameter over maxParamLength) answer the
    // error envelope too instead of Fastify's default body (the bad-input test).
    frameworkErrors: errorHandler,
  });
  echoRequestId(app);
  app.setValidatorCompiler(validatorCompiler);
  // Answers: zod-checked (and compared with the compiled writer) in tests and development, compiled in production.
  app.setSerializerCompiler(
    responseSerializerCompiler(config.nodeEnv === 'production' ? 'compiled' : 'checked'),
  );

  // The web client sends Content-Type: application/json on every request (SPEC §7), also on DELETE without
  // a body; an empty JSON body is read as "no body" instead of a 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text, refuseProtoKeys);
    } catch (error) {
      const message = error === protoKeyError ? protoKeyError.message : 'The request body is not valid JSON.';
      return done(new AppError(400, errorCodes.invalidJson, message), undefined);
    }
    done(null, parsed);
  });

  const database = await createDatabase(config, app.log);
  app.addHook('onClose', async () => database.db.destroy());
  await waitForDatabase(database, config, app.log);
  await migrateToLatest(database);
  const stopStatistics = await keepStatistics(database, app.log);
  app.addHook('onClose', async () => stopStatistics());
  const { storage, close: closeStorage } = await openStorage(config.storage);
  app.addHook('onClose', async () => closeStorage());

  const services = await createServices(config, database, storage, app.log);
  // Runs once the server has stopped accepting and its requests are done, before storage and the database close.
  app.addHook('onClose', async () => services.close());
  services.metrics.timeRequests(app);
  services.metrics.countFaults(app);
  await seedOnStart(config, database.db, services, app.log);

  const playApp = buildPlayApp({
    ...services.play,
    storage,
    accelRedirect: config.playAccelRedirect,
    metrics: services.metrics,
    logLevel: config.logLevel,
    logDestination,
    trustProxy: config.trustProxy,
  });
  // Both origins stop accepting at once when the app closes (server.ts on SIGTERM); the app waits for both.
  let playAppClosed: Promise<void> | undefined;
  app.addHook('preClose', async () => {
    playAppClosed = playApp.close();
  });
  app.addHook('onClose', async () => playAppClosed ?? playApp.close());

  await app.register(errorEnvelopePlugin);
  addSecurityHeaders(app, services.play.origins.cspSource);
  // br or gzip for text answers (JSON, index.html); the built assets are compressed at build time.
  await app.register(compress, { globalDecompression: false });
  // API answers are never stored, except the big lists a browser revalidates (plugins/revalidation.ts, decision 0063).
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    done();
  });
  await app.register(cookie);
  // Per address, in Redis with this server's memory as its fallback (plugins/rate-limit.ts); set per route.
  await app.register(rateLimit, rateLimitOptions(services.redis));
  await app.register(openapiPlugin);
  await app.register(async (api) => apiRoutes(api, config, services), { prefix: '/api' });

  await registerWebApp(
    app,
    config.webDistDir,
    async (gameId) => (await services.play.files.settingsOf(gameId))?.isolated ?? false,
  );
  // Sheets a stopped server left behind their frames are served as their frames say again (decision 0046), and
  // marked renditions are drawn where missing (decision 0049): in the background, so a server with many such sheets
  // (every composed sheet, the first time after migration 0020) answers at once. Closing waits for it.
  const sheetsRecovered = services.sheetComposer.recomposeBehind().catch((error: unknown) => {
    app.log.error(
      { err: error },
      'the sheets left behind could not be listed; the next start or services update tries again',
    );
    return 0;
  });
  app.addHook('preClose', async () => void (await sheetsRecovered));
  const { generation, mail, inbox } = services;
  return { app, playApp, database, generation, playUsage: services.play.usage, mail, inbox, sheetsRecovered };
}

/** Everything under /api: the session and XSRF checks, then each module's routes with the services they use. */
async function apiRoutes(api: FastifyInstance, config: Config, services: Services): Promise<void> {
  const { maxFileSizeBytes, authRateLimitMax } = config;
  await api.register(xsrfPlugin);
  await api.register(authPlugin, { authenticate: (token: string) => services.users.authenticate(token) });
  api.withTypeProvider<ZodTypeProvider>().get(
    '/config',
    {
      schema: {
        tags: ['config'],
        summary: 'What the web app needs to know',
        response: { 200: publicConfigSchema },
      },
    },
    async () => ({
      productName: config.productName,
      playOrigin: config.playOrigin,
      mail: services.mail.enabled,
      maxFileSizeBytes,
    }),
  );
  await api.register(metricsRoutes, { metrics: services.metrics, token: config.metricsToken });
  await api.register(healthRoutes, { health: services.health });
  await api.register(legalRoutes, { legal: services.legal });
  await api.register(usersRoutes, { users: services.users, authRateLimitMax });
  await api.register(mailRoutes, { mail: services.mail, authRateLimitMax });
  await api.register(adminRoutes, { servicesUpdate: services.servicesUpdate });
  await api.register(playPathsRoutes, { paths: services.paths });
  await api.register(previewsRoutes, { previews: services.previews });
  await api.register(fileUsageRoutes, { usage: services.fileUsage });
  await api.register(atlasesRoutes, { atlases: services.atlases });
  await api.register(userGamesRoutes, { userGames: services.userGames });
  await api.register(reviewRoutes, { review: services.review });
  await api.register(inboxRoutes, { inbox: services.inbox });
  // The uploads, under multipart's limits.
  await api.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: maxFileSizeBytes,
        files: limits.adminUploadFiles,
        fields: limits.adminUploadFiles * 2 + 10,
        fieldSize: 4096,
        parts: limits.adminUploadFiles * 3 + 10,
      },
    });
    scope.addHook('onResponse', discardUnreadBody);
    await scope.register(gamesRoutes, { games: services.games, uploads: services.uploads, maxFileSizeBytes });
    await scope.register(versionsRoutes, {
      versions: services.versions,
      intake: services.intake,
      maxFileSizeBytes,
    });
    await scope.register(versionHistoryRoutes, { history: services.history });
    await scope.register(versionFramesRoutes, {
      frames: services.versionFrames,
      intake: services.intake,
      maxFileSizeBytes,
    });
    await scope.register(versionBatchRoutes, { batch: services.versionBatch, maxFileSizeBytes });
    await scope.register(helperFilesRoutes, { helperFiles: services.helperFiles, maxFileSizeBytes });
  });
}

/**
 * A JSON body with a `__proto__` key (at any depth) is refused like Fastify's own parser does: copied into a
 * plain object it would set that object's prototype instead of a field (input hardening).
 */
const protoKeyError = new Error('The request body must not contain a "__proto__" key.');
function refuseProtoKeys(key: string, value: unknown): unknown {
  if (key === '__proto__') throw protoKeyError;
  return value;
}
