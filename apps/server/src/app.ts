import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import helmet from 'helmet';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './lib/response-serializer';
import {
  errorCodes,
  limits,
  playScreenPathList,
  publicConfigSchema,
  throttleMessages,
} from '@reskin/contract';
import type { Config } from './config';
import { createDatabase, keepStatistics, migrateToLatest, waitForDatabase, type Db } from './db/database';
import { activeAdminPresent, demoAccountsPresent, ensureAdmin, seedDemo, seedSampleGame } from './db/seed';
import { AppError } from './lib/errors';
import { DeviceCookies } from './lib/device-cookies';
import { DownloadTickets } from './lib/download-tickets';
import { echoRequestId, loggingOptions, type LogDestination } from './lib/logging';
import { discardUnreadBody } from './lib/multipart';
import { PostingThrottle } from './lib/posting-throttle';
import { connectRedis } from './lib/redis';
import { SessionTokens } from './lib/tokens';
import { HelperFilesRepository } from './modules/helper-files/helper-files.repository';
import { helperFilesRoutes } from './modules/helper-files/helper-files.routes';
import { HelperFilesService } from './modules/helper-files/helper-files.service';
import { openStorage } from './storage/create-storage';
import { FreeSpaceGuard } from './storage/free-space';
import { buildPlayApp, isolationHeaders } from './play/play-app';
import { PlayBodies } from './play/play-bodies';
import { PlayFiles } from './play/play-files';
import { PlayOrigins } from './play/play-origins';
import { PlayPathsService } from './play/play-paths.service';
import { previewsRoutes } from './modules/previews/previews.routes';
import { PreviewsService } from './modules/previews/previews.service';
import { playPathsRoutes } from './play/play-paths.routes';
import { PlayAccess } from './play/play-access';
import { PlayTokens } from './play/play-tokens';
import { PlayUsage } from './play/play-usage';
import { AtlasGridsRepository } from './modules/atlases/atlas-grids.repository';
import { atlasesRoutes } from './modules/atlases/atlases.routes';
import { AtlasesService } from './modules/atlases/atlases.service';
import { framesOnPage } from './modules/atlases/page-frames';
import { SheetComposer } from './modules/versions/sheets/sheet-composer';
import { versionFramesRoutes } from './modules/versions/sheets/version-frames.routes';
import { VersionFramesService } from './modules/versions/sheets/version-frames.service';
import { IntakeRepository } from './modules/versions/intake/intake.repository';
import { VersionIntake } from './modules/versions/intake/version-intake';
import { VersionSheetsRepository } from './modules/versions/sheets/version-sheets.repository';
import { FileUsageRepository } from './modules/file-usage/file-usage.repository';
import { fileUsageRoutes } from './modules/file-usage/file-usage.routes';
import { FileUsageService } from './modules/file-usage/file-usage.service';
import { adminRoutes } from './modules/admin/admin.routes';
import { ServicesUpdateService } from './modules/admin/services-update.service';
import { StoredFilesRepository } from './modules/stored-files/stored-files.repository';
import { StoredFilesService } from './modules/stored-files/stored-files.service';
import { healthRoutes } from './modules/health/health.routes';
import { HealthService } from './modules/health/health.service';
import { legalRoutes } from './modules/legal/legal.routes';
import { Metrics } from './modules/metrics/metrics';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { LegalService } from './modules/legal/legal.service';
import { GameGeneration } from './modules/games/game-generation';
import { InProcessGenerationJobs, PgBossGenerationJobs } from './modules/games/generation-jobs';
import { GamesRepository } from './modules/games/games.repository';
import { gamesRoutes } from './modules/games/games.routes';
import { GameEngines } from './modules/games/game-engine';
import { GamesService } from './modules/games/games.service';
import { UserGamesRepository } from './modules/user-games/user-games.repository';
import { userGamesRoutes } from './modules/user-games/user-games.routes';
import { UserGamesService } from './modules/user-games/user-games.service';
import { UsersRepository } from './modules/users/users.repository';
import { VersionsRepository } from './modules/versions/versions.repository';
import { versionsRoutes } from './modules/versions/versions.routes';
import { VersionsService } from './modules/versions/versions.service';
import { versionBatchRoutes } from './modules/versions/version-batch.routes';
import { VersionBatchService } from './modules/versions/version-batch.service';
import { VersionHistoryRecorder } from './modules/version-history/version-history.recorder';
import { VersionHistoryRepository } from './modules/version-history/version-history.repository';
import { versionHistoryRoutes } from './modules/version-history/version-history.routes';
import { VersionHistoryService } from './modules/version-history/version-history.service';
import { InboxRepository } from './modules/inbox/inbox.repository';
import { inboxRoutes } from './modules/inbox/inbox.routes';
import { InboxService } from './modules/inbox/inbox.service';
import { ReviewHooks } from './modules/review/review-hooks';
import { ReviewRepository } from './modules/review/review.repository';
import { reviewRoutes } from './modules/review/review.routes';
import { ReviewService } from './modules/review/review.service';
import { usersRoutes } from './modules/users/users.routes';
import { UsersService } from './modules/users/users.service';
import { MailOutbox, smtpTransport } from './modules/mail/mail-outbox';
import { MailRepository } from './modules/mail/mail.repository';
import { mailRoutes } from './modules/mail/mail.routes';
import { MailService } from './modules/mail/mail.service';
import { authPlugin } from './plugins/auth';
import { errorEnvelopePlugin, errorHandler } from './plugins/error-envelope';
import { openapiPlugin } from './plugins/openapi';
import { rateLimitOptions } from './plugins/rate-limit';
import { xsrfPlugin } from './plugins/xsrf';

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
 * Builds the whole server without listening: opens the database, runs the migrations, seeds what the
 * configuration asks for, and registers plugins and routes. Tests and server.ts both use it.
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
  // One registry per app (tests build many in one process): GET /api/metrics (decision 0031).
  const metrics = new Metrics();
  metrics.timeRequests(app);
  metrics.countFaults(app);
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
      return done(new AppError(400, 'BadRequestError', message, 'INVALID_JSON'), undefined);
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
  const storedFilesRepository = new StoredFilesRepository(database.db, database.dialect);
  const storedFiles = new StoredFilesService(storedFilesRepository, storage, app.log);
  app.addHook('onClose', async () => storedFiles.close());
  // The volumes of this machine that uploads and generation write to: DATA_DIR when it holds the SQLite database
  // or the files, and the temporary folder of zip uploads.
  const space = new FreeSpaceGuard(
    [
      ...(config.storage.kind === 'local' || !config.databaseUrl
        ? [{ volume: 'data' as const, path: config.dataDir }]
        : []),
      { volume: 'temp' as const, path: tmpdir() },
    ],
    config.minFreeSpace,
  );
  const usersRepository = new UsersRepository(database.db, database.dialect);
  // Rate limits shared by every app server (REDIS_URL); closed after the requests that count in it are done.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  const gamesRepository = new GamesRepository(database.db);
  // Whether a play link still gives access: answers kept PLAY_ACCESS_CACHE_SECONDS, and forgotten at once when this
  // server changes the user or their assignments.
  const playAccess = new PlayAccess(usersRepository, gamesRepository, config.playAccessCacheMs);
  const users = new UsersService(
    usersRepository,
    new SessionTokens(config.jwtSecret),
    new DeviceCookies(config.jwtSecret),
    database.dialect,
    storedFiles,
    redis,
    config.playAccessCacheMs,
    (userId) => playAccess.forgetUser(userId),
  );
  // Mail (SMTP_URL, decision 0035): a persistent outbox worked by every server; without SMTP_URL none of it runs.
  const mailConfig = config.mail;
  const outbox = mailConfig
    ? new MailOutbox(
        database.db,
        database.dialect,
        await smtpTransport(mailConfig.smtpUrl),
        mailConfig.from,
        app.log,
        mailConfig.pollMs,
      )
    : undefined;
  const mail = new MailService(
    new MailRepository(database.db),
    outbox,
    {
      productName: config.productName,
      publicUrl: mailConfig?.publicUrl ?? `http://localhost:${config.port}`,
    },
    mailConfig?.digestHourUtc ?? 8,
    redis,
    app.log,
    (userId) => users.changed(userId),
  );
  users.onEmailToVerify((userId) => mail.sendVerification(userId));
  if (mailConfig) mail.start(mailConfig.pollMs);
  app.addHook('onClose', async () => mail.close());
  // Download links carry the user's token version and are checked against the database at every download.
  const downloadTickets = new DownloadTickets(config.jwtSecret, {
    tokenVersionOf: (userId) => users.tokenVersionOf(userId),
    current: (userId) => usersRepository.findWithTokenVersion(userId),
  });
  // A sprite sheet's watermarked copy marks each of its frames: generation asks the game's atlases.
  const atlases = new AtlasesService(
    gamesRepository,
    storage,
    new AtlasGridsRepository(database.db),
    app.log,
  );
  const generation = new GameGeneration(
    gamesRepository,
    storage,
    config.productName,
    app.log,
    async (gameId, fileId) => framesOnPage(await atlases.find(gameId), fileId),
  );
  generation.useMetrics(metrics.generation);
  // On PostgreSQL any app server runs any job (a queue with leases); on SQLite this process runs them.
  await generation.open(
    config.databaseUrl
      ? await PgBossGenerationJobs.open({
          connectionString: config.databaseUrl,
          // Beside the app's tables: its own schema (a test's schema gets one of its own too).
          schema: config.databaseSchema ? `${config.databaseSchema}_jobs` : 'pgboss',
          leaseMs: config.generationLeaseMs,
          drainMs: config.drainTimeoutMs,
          games: gamesRepository,
          db: database.db,
          log: app.log,
          giveUp: (gameId, why, kind) => generation.giveUp(gameId, why, kind),
        })
      : new InProcessGenerationJobs(gamesRepository, app.log),
  );
  // Runs once the server has stopped accepting and its requests are done, before the database closes.
  app.addHook('onClose', async () => generation.close());
  const versionsRepository = new VersionsRepository(database.db, database.dialect);
  // The play origin's file lookups, forgotten at once when this server changes a game's or a version's files.
  const versionSheets = new VersionSheetsRepository(database.db, versionsRepository);
  const playFiles = new PlayFiles(gamesRepository, versionsRepository, versionSheets, config.playFileCacheMs);
  const filesChanged = (gameId: number) => playFiles.forgetGame(gameId);
  generation.onCopiesChanged(filesChanged);
  const engines = new GameEngines(gamesRepository, storage, app.log);
  // Image previews on this origin (decision 0038): URLs signed for the caller, checked like a session.
  const previews = new PreviewsService(
    config.jwtSecret,
    storage,
    (userId) => users.current(userId),
    (userId) => users.tokenVersionOf(userId),
    app.log,
  );
  const games = new GamesService(
    gamesRepository,
    storage,
    database.dialect,
    generation,
    storedFiles,
    filesChanged,
    space,
    engines,
    previews,
  );

  if (config.seedDemo && (await seedDemo(database.db, app.log))) {
    await seedSampleGame(database.db, games, generation, app.log);
  }
  if (config.admin) await ensureAdmin(database.db, config.admin, app.log);
  if (config.nodeEnv === 'production' && (await demoAccountsPresent(database.db))) {
    app.log.warn(
      'NODE_ENV=production and the demo accounts exist: delete them or set SEED_DEMO=false on a fresh database.',
    );
  }
  if (!(await activeAdminPresent(database.db))) {
    app.log.warn(
      'NO ACTIVE ADMINISTRATOR: nobody can manage users or games. Set ADMIN_EMAIL and ADMIN_PASSWORD and restart to create one.',
    );
  }
  const helperFiles = new HelperFilesService(
    new HelperFilesRepository(database.db, database.dialect),
    gamesRepository,
    storage,
    downloadTickets,
    storedFiles,
    space,
  );
  const playTokens = new PlayTokens(config.jwtSecret);
  const playOrigins = new PlayOrigins(config.playOrigin);
  // The token version from the users the session check keeps (no read per my-games page or play link).
  const paths = new PlayPathsService(
    gamesRepository,
    playTokens,
    playOrigins,
    (userId) => users.tokenVersionOf(userId),
    previews,
  );
  const userGamesRepository = new UserGamesRepository(database.db);
  const fileUsageRepository = new FileUsageRepository(database.db);
  const playUsage = config.playUsage.enabled
    ? new PlayUsage(fileUsageRepository, config.playUsage, app.log)
    : undefined;
  const playApp = buildPlayApp({
    origins: playOrigins,
    tokens: playTokens,
    access: playAccess,
    files: playFiles,
    storage,
    bodies: new PlayBodies(config.playBodyCacheBytes),
    usage: playUsage,
    accelRedirect: config.playAccelRedirect,
    metrics,
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
  // The inbox: causes write their events in their own transactions; `inbox.onEventsAdded` is the
  // after-commit hook.
  const inbox = new InboxService(new InboxRepository(database.db), app.log);
  // New inbox events go out by mail too, as each user chose (each, a daily digest, never; decision 0035).
  inbox.onEventsAdded.push((ids) => mail.mailInboxEvents(ids));
  // A failed generation is told to every active administrator, with its reason in words (decision 0052).
  generation.onFailed((gameId, reason) =>
    inbox.toActiveAdmins({ kind: 'generation_failed', gameId, text: reason }),
  );
  const reviewRepository = new ReviewRepository(database.db);
  // The history of versions' files (decision 0034): an entry for each replacement.
  const versionHistory = new VersionHistoryRepository(database.db, versionsRepository);
  const historyRecorder = new VersionHistoryRecorder(
    versionHistory,
    storage,
    storedFiles,
    config.versionHistoryLimit,
  );
  const sheetComposer = new SheetComposer(
    versionSheets,
    atlases,
    storage,
    storedFiles,
    filesChanged,
    historyRecorder,
    gamesRepository,
    app.log,
  );
  generation.onCopiesReplaced(
    async (gameId, fileId) => void (await sheetComposer.recomposeMarked({ gameId, fileId })),
  );
  const versions = new VersionsService(
    versionsRepository,
    userGamesRepository,
    storage,
    paths,
    downloadTickets,
    storedFiles,
    database.dialect,
    filesChanged,
    versionSheets,
    new ReviewHooks(reviewRepository, inbox),
    previews,
    // Finishes per account (decision 0044): each tells every admin.
    new PostingThrottle(redis, 'reskin-finishes', config.postingLimits.finishes, throttleMessages.finishes),
  );
  const review = new ReviewService(
    reviewRepository,
    versions,
    gamesRepository,
    atlases,
    inbox,
    new PostingThrottle(redis, 'reskin-notes', config.postingLimits.notes, throttleMessages.notes),
  );
  const versionFrames = new VersionFramesService(
    versions,
    versionSheets,
    sheetComposer,
    gamesRepository,
    storedFiles,
  );
  // Every artist's bytes for a version's file come in here (decision 0055).
  const intake = new VersionIntake(
    versions,
    new IntakeRepository(database.db, versionsRepository),
    versionsRepository,
    versionSheets,
    sheetComposer,
    atlases,
    storage,
    storedFiles,
    space,
    historyRecorder,
    filesChanged,
    previews,
  );
  // Replace from a folder or a zip: each row through the single upload or the frame upload above.
  const versionBatch = new VersionBatchService(
    versions,
    intake,
    gamesRepository,
    atlases,
    storage,
    config.maxFileSizeBytes,
    space,
    fileUsageRepository,
  );

  await app.register(errorEnvelopePlugin);
  // Helmet's headers on every answer, its middleware made once (@fastify/helmet made a new one, parsing the CSP
  // again, for every request: 3% of an API read's CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: { directives: contentSecurityPolicy(playOrigins.cspSource) },
    frameguard: { action: 'deny' },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) =>
      done(error instanceof Error ? error : undefined),
    ),
  );
  // br or gzip for text answers (JSON, index.html); the built assets are compressed at build time.
  await app.register(compress, { globalDecompression: false });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/api' || request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
  });
  await app.register(cookie);
  // Per address, in Redis with this server's memory as its fallback (plugins/rate-limit.ts); set per route.
  await app.register(rateLimit, rateLimitOptions(redis));
  await app.register(openapiPlugin);

  await app.register(
    async (api) => {
      await api.register(xsrfPlugin);
      await api.register(authPlugin, { authenticate: (token: string) => users.authenticate(token) });
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
          mail: mail.enabled,
          maxFileSizeBytes: config.maxFileSizeBytes,
        }),
      );
      await api.register(metricsRoutes, { metrics, token: config.metricsToken });
      await api.register(healthRoutes, { health: new HealthService(database.db, storage, space, app.log) });
      await api.register(legalRoutes, { legal: new LegalService(config.legalTexts, config.productName) });
      await api.register(usersRoutes, { users, authRateLimitMax: config.authRateLimitMax });
      await api.register(mailRoutes, { mail, authRateLimitMax: config.authRateLimitMax });
      await api.register(adminRoutes, {
        servicesUpdate: new ServicesUpdateService(
          database.db,
          storage,
          generation,
          storedFiles,
          space,
          app.log,
          { history: versionHistory, limit: config.versionHistoryLimit },
          sheetComposer,
        ),
      });
      await api.register(playPathsRoutes, { paths });
      await api.register(previewsRoutes, { previews });
      await api.register(fileUsageRoutes, {
        usage: new FileUsageService(fileUsageRepository, gamesRepository),
      });
      await api.register(atlasesRoutes, { atlases });
      await api.register(userGamesRoutes, {
        userGames: new UserGamesService(
          userGamesRepository,
          paths,
          database.dialect,
          storedFiles,
          (userId) => playAccess.forgetUser(userId),
          inbox,
        ),
      });
      await api.register(reviewRoutes, { review });
      await api.register(inboxRoutes, { inbox });
      await api.register(async (scope) => {
        await scope.register(multipart, {
          limits: {
            fileSize: config.maxFileSizeBytes,
            files: limits.adminUploadFiles,
            fields: limits.adminUploadFiles * 2 + 10,
            fieldSize: 4096,
            parts: limits.adminUploadFiles * 3 + 10,
          },
        });
        scope.addHook('onResponse', discardUnreadBody);
        await scope.register(gamesRoutes, { games, maxFileSizeBytes: config.maxFileSizeBytes });
        await scope.register(versionsRoutes, {
          versions,
          intake,
          maxFileSizeBytes: config.maxFileSizeBytes,
        });
        await scope.register(versionHistoryRoutes, {
          history: new VersionHistoryService(
            versionHistory,
            versions,
            intake,
            gamesRepository,
            storage,
            downloadTickets,
            config.versionHistoryLimit,
          ),
        });
        await scope.register(versionFramesRoutes, {
          frames: versionFrames,
          intake,
          maxFileSizeBytes: config.maxFileSizeBytes,
        });
        await scope.register(versionBatchRoutes, {
          batch: versionBatch,
          maxFileSizeBytes: config.maxFileSizeBytes,
        });
        await scope.register(helperFilesRoutes, {
          helperFiles,
          maxFileSizeBytes: config.maxFileSizeBytes,
        });
      });
    },
    { prefix: '/api' },
  );

  await registerWebApp(
    app,
    config.webDistDir,
    async (gameId) => (await playFiles.settingsOf(gameId))?.isolated ?? false,
  );
  // Sheets a stopped server left behind their frames are served as their frames say again (decision 0046), and
  // marked renditions are drawn where missing (decision 0049): in the background, so a server with many such sheets
  // (every composed sheet, the first time after migration 0020) answers at once. Closing waits for it.
  const sheetsRecovered = sheetComposer.recomposeBehind().catch((error: unknown) => {
    app.log.error(
      { err: error },
      'the sheets left behind could not be listed; the next start or services update tries again',
    );
    return 0;
  });
  app.addHook('preClose', async () => void (await sheetsRecovered));
  return { app, playApp, database, generation, playUsage, mail, inbox, sheetsRecovered };
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
async function registerWebApp(
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
      throw new AppError(
        404,
        'NotFoundError',
        `Route GET ${request.url.split('?')[0]} not found.`,
        errorCodes.notFound,
      );
    }
    if (!index) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    const gameId = playScreenGame(request.url);
    if (gameId !== undefined && (await isolatedGame(gameId))) reply.headers(isolationHeaders);
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(index);
  });
}
