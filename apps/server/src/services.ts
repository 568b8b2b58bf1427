import { tmpdir } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { sheetsOf, throttleMessages } from '@reskin/contract';
import type { Config } from './config';
import type { Db } from './db/database';
import { DownloadTickets } from './lib/download-tickets';
import { PostingThrottle } from './lib/posting-throttle';
import { connectRedis } from './lib/redis';
import { ServicesUpdateService } from './modules/admin/services-update.service';
import { AtlasGridsRepository } from './modules/atlases/atlas-grids.repository';
import { AtlasesService } from './modules/atlases/atlases.service';
import { SheetComposer } from './modules/versions/sheets/sheet-composer';
import { VersionFramesService } from './modules/versions/sheets/version-frames.service';
import { VersionSheetsRepository } from './modules/versions/sheets/version-sheets.repository';
import { IntakeRepository } from './modules/versions/intake/intake.repository';
import { VersionIntake } from './modules/versions/intake/version-intake';
import { GroupIntake } from './modules/versions/intake/group-intake';
import { FileUsageRepository } from './modules/file-usage/file-usage.repository';
import { FileUsageService } from './modules/file-usage/file-usage.service';
import { GameDetectionRepository } from './modules/games/game-detection.repository';
import { GameEngines } from './modules/games/game-engine';
import { GameFilesRepository } from './modules/games/game-files.repository';
import { GameGeneration } from './modules/games/game-generation';
import { GameUploads } from './modules/games/game-uploads.service';
import { GamesRepository } from './modules/games/games.repository';
import { GamesService } from './modules/games/games.service';
import { GenerationRepository } from './modules/games/generation.repository';
import { InProcessGenerationJobs } from './modules/games/generation-jobs';
import { PgBossGenerationJobs } from './modules/games/generation-queue';
import { HealthService } from './modules/health/health.service';
import { HelperFilesRepository } from './modules/helper-files/helper-files.repository';
import { HelperFilesService } from './modules/helper-files/helper-files.service';
import { InboxRepository } from './modules/inbox/inbox.repository';
import { InboxService } from './modules/inbox/inbox.service';
import { LegalService } from './modules/legal/legal.service';
import { MailOutbox, smtpTransport } from './modules/mail/mail-outbox';
import { MailRepository } from './modules/mail/mail.repository';
import { MailService } from './modules/mail/mail.service';
import { Metrics } from './modules/metrics/metrics';
import { PreviewsService } from './modules/previews/previews.service';
import { ReviewHooks } from './modules/review/review-hooks';
import { ReviewRepository } from './modules/review/review.repository';
import { ReviewService } from './modules/review/review.service';
import { StoredFilesRepository } from './modules/stored-files/stored-files.repository';
import { StoredFilesService } from './modules/stored-files/stored-files.service';
import { UserGamesRepository } from './modules/user-games/user-games.repository';
import { UserGamesService } from './modules/user-games/user-games.service';
import { DeviceCookies } from './modules/users/device-cookies';
import { SessionTokens } from './modules/users/tokens';
import { UsersRepository } from './modules/users/users.repository';
import { UsersService } from './modules/users/users.service';
import { VersionHistoryRecorder } from './modules/version-history/version-history.recorder';
import { VersionHistoryRepository } from './modules/version-history/version-history.repository';
import { VersionHistoryService } from './modules/version-history/version-history.service';
import { VersionBatchService } from './modules/versions/version-batch.service';
import { VersionsRepository } from './modules/versions/versions.repository';
import { VersionsService } from './modules/versions/versions.service';
import { PlayAccess } from './play/play-access';
import { PlayBodies } from './play/play-bodies';
import { PlayFiles } from './play/play-files';
import { PlayOrigins } from './modules/play-paths/play-origins';
import { PlayPathsService } from './modules/play-paths/play-paths.service';
import { PlayTokens } from './modules/play-paths/play-tokens';
import { PlayUsage } from './play/play-usage';
import { FreeSpaceGuard } from './storage/free-space';
import type { Storage } from './storage/storage';

/** Every service of the server, built once per app (app.ts takes what its routes need from here). */
export type Services = Awaited<ReturnType<typeof createServices>>;

/**
 * Builds every service of the server on an open database and storage, and wires the events between them (a
 * changed file tells the play origin, a failed generation the admins' inbox, an inbox event the mail). It starts
 * the background work that belongs to them (generation jobs, the mail worker); `close()` stops it again, the
 * generation first, before the database and storage close (app.ts closes those after).
 */
export async function createServices(config: Config, database: Db, storage: Storage, log: FastifyBaseLogger) {
  const { db, dialect } = database;
  const closing: (() => Promise<unknown>)[] = [];
  // One registry per app (tests build many in one process): GET /api/metrics (decision 0031).
  const metrics = new Metrics();
  const storedFiles = new StoredFilesService(new StoredFilesRepository(db, dialect), storage, log);
  closing.push(async () => storedFiles.close());
  const space = new FreeSpaceGuard(spaceWatched(config), config.minFreeSpace);
  // Rate limits shared by every app server (REDIS_URL); closed after the requests that count in it are done.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, log) : undefined;
  if (redis) closing.push(async () => quit(redis));

  const usersRepository = new UsersRepository(db, dialect);
  const gamesRepository = new GamesRepository(db);
  const gameFiles = new GameFilesRepository(db);
  // Whether a play link still gives access: answers kept PLAY_ACCESS_CACHE_SECONDS, and forgotten at once when this
  // server changes the user or their assignments.
  const playAccess = new PlayAccess(usersRepository, gamesRepository, config.playAccessCacheMs);
  const forgetUser = (userId: number) => playAccess.forgetUser(userId);
  const users = new UsersService(
    usersRepository,
    new SessionTokens(config.jwtSecret),
    new DeviceCookies(config.jwtSecret),
    dialect,
    storedFiles,
    redis,
    config.playAccessCacheMs,
    forgetUser,
  );
  const mail = await createMail(config, database, redis, log, (userId) => users.changed(userId));
  users.onEmailToVerify((userId) => mail.sendVerification(userId));
  closing.push(async () => mail.close());
  // Download links carry the user's token version and are checked against the database at every download.
  const downloadTickets = new DownloadTickets(config.jwtSecret, {
    tokenVersionOf: (userId) => users.tokenVersionOf(userId),
    current: (userId) => usersRepository.findWithTokenVersion(userId),
  });

  // A sprite sheet's watermarked copy marks each of its frames: generation asks the game's atlases.
  const atlases = new AtlasesService(gamesRepository, gameFiles, storage, new AtlasGridsRepository(db), log);
  const generation = new GameGeneration(
    new GenerationRepository(db),
    gameFiles,
    storage,
    config.productName,
    log,
    async (gameId, fileId) =>
      sheetsOf((await atlases.find(gameId)).atlases, fileId).flatMap((sheet) =>
        sheet.frames.map((frame) => frame.rect),
      ),
  );
  generation.useMetrics(metrics.generation);
  await generation.open(await generationJobs(config, database, generation, log));
  // Runs once the server has stopped accepting and its requests are done, before the database closes.
  closing.push(async () => generation.close());

  const versionsRepository = new VersionsRepository(db, dialect);
  // The play origin's file lookups, forgotten at once when this server changes a game's or a version's files.
  const versionSheets = new VersionSheetsRepository(db, versionsRepository);
  const playFiles = new PlayFiles(
    gamesRepository,
    gameFiles,
    versionsRepository,
    versionSheets,
    config.playFileCacheMs,
  );
  const filesChanged = (gameId: number) => playFiles.forgetGame(gameId);
  generation.onCopiesChanged(filesChanged);
  const detection = new GameDetectionRepository(db);
  const engines = new GameEngines(detection, storage, log);
  // Image previews on this origin (decision 0038): URLs signed for the caller, checked like a session.
  const previews = new PreviewsService(
    config.jwtSecret,
    storage,
    (userId) => users.current(userId),
    (userId) => users.tokenVersionOf(userId),
    log,
  );
  const gameDeps = { storage, generation, storedFiles, filesChanged, space, engines };
  const games = new GamesService({
    ...gameDeps,
    games: gamesRepository,
    gameFiles,
    detection,
    dialect,
    previews,
  });
  const uploads = new GameUploads({ ...gameDeps, games, repository: gamesRepository, gameFiles });
  const helperFiles = new HelperFilesService(
    new HelperFilesRepository(db, dialect),
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
    gameFiles,
    playTokens,
    playOrigins,
    (userId) => users.tokenVersionOf(userId),
    previews,
  );
  const userGamesRepository = new UserGamesRepository(db);
  const fileUsageRepository = new FileUsageRepository(db);
  const playUsage = config.playUsage.enabled
    ? new PlayUsage(fileUsageRepository, config.playUsage, log)
    : undefined;

  // The inbox: causes write their events in their own transactions; `inbox.onEventsAdded` is the
  // after-commit hook.
  const inbox = new InboxService(new InboxRepository(db), log);
  // New inbox events go out by mail too, as each user chose (each, a daily digest, never; decision 0035).
  inbox.onEventsAdded.push((ids) => mail.mailInboxEvents(ids));
  // A failed generation is told to every active administrator, with its reason in words (decision 0052).
  generation.onFailed((gameId, reason) =>
    inbox.toActiveAdmins({ kind: 'generation_failed', gameId, text: reason }),
  );
  const reviewRepository = new ReviewRepository(db);
  // The history of versions' files (decision 0034): an entry for each replacement.
  const versionHistory = new VersionHistoryRepository(db, versionsRepository);
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
    gameFiles,
    log,
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
    dialect,
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
    gameFiles,
    atlases,
    inbox,
    new PostingThrottle(redis, 'reskin-notes', config.postingLimits.notes, throttleMessages.notes),
  );
  const versionFrames = new VersionFramesService(
    versions,
    versionSheets,
    sheetComposer,
    gameFiles,
    storedFiles,
  );
  // Every artist's bytes for a version's file come in here (decision 0055).
  const intakeRows = new IntakeRepository(db, versionsRepository);
  const intake = new VersionIntake(
    versions,
    intakeRows,
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
  // Replace from a folder or a zip: whole images in groups (decision 0060), other rows through the intake above.
  const versionBatch = new VersionBatchService(
    versions,
    intake,
    new GroupIntake(intake, versions, intakeRows, storage, storedFiles, space, historyRecorder, filesChanged),
    gameFiles,
    atlases,
    storage,
    config.maxFileSizeBytes,
    space,
    fileUsageRepository,
  );

  return {
    metrics,
    redis,
    space,
    users,
    mail,
    inbox,
    generation,
    games,
    uploads,
    helperFiles,
    atlases,
    paths,
    previews,
    versions,
    versionFrames,
    intake,
    versionBatch,
    review,
    sheetComposer,
    /** What the play origin (play/play-app.ts) serves with. */
    play: {
      origins: playOrigins,
      tokens: playTokens,
      access: playAccess,
      files: playFiles,
      bodies: new PlayBodies(config.playBodyCacheBytes),
      usage: playUsage,
    },
    health: new HealthService(db, storage, space, log),
    legal: new LegalService(config.legalTexts, config.productName),
    servicesUpdate: new ServicesUpdateService(
      db,
      storage,
      generation,
      storedFiles,
      space,
      log,
      { history: versionHistory, limit: config.versionHistoryLimit },
      sheetComposer,
    ),
    fileUsage: new FileUsageService(fileUsageRepository, gamesRepository),
    userGames: new UserGamesService(userGamesRepository, paths, dialect, storedFiles, forgetUser, inbox),
    history: new VersionHistoryService(
      versionHistory,
      versions,
      intake,
      gameFiles,
      storage,
      downloadTickets,
      config.versionHistoryLimit,
    ),
    /** Stops the background work, the last started first: generation, mail, Redis, the deletes left to retry. */
    async close(): Promise<void> {
      for (const close of closing.reverse()) await close();
    },
  };
}

/**
 * The volumes of this machine that uploads and generation write to: DATA_DIR when it holds the SQLite database
 * or the files, and the temporary folder of zip uploads.
 */
function spaceWatched(config: Config): ConstructorParameters<typeof FreeSpaceGuard>[0] {
  return [
    ...(config.storage.kind === 'local' || !config.databaseUrl
      ? [{ volume: 'data' as const, path: config.dataDir }]
      : []),
    { volume: 'temp' as const, path: tmpdir() },
  ];
}

async function quit(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}

/** Mail (SMTP_URL, decision 0035): a persistent outbox worked by every server; without SMTP_URL none of it runs. */
async function createMail(
  config: Config,
  { db, dialect }: Db,
  redis: Redis | undefined,
  log: FastifyBaseLogger,
  userChanged: (userId: number) => void,
): Promise<MailService> {
  const mailConfig = config.mail;
  const outbox = mailConfig
    ? new MailOutbox(
        db,
        dialect,
        await smtpTransport(mailConfig.smtpUrl),
        mailConfig.from,
        log,
        mailConfig.pollMs,
      )
    : undefined;
  const mail = new MailService(
    new MailRepository(db),
    outbox,
    {
      productName: config.productName,
      publicUrl: mailConfig?.publicUrl ?? `http://localhost:${config.port}`,
    },
    mailConfig?.digestHourUtc ?? 8,
    redis,
    log,
    userChanged,
  );
  if (mailConfig) mail.start(mailConfig.pollMs);
  return mail;
}

/** On PostgreSQL any app server runs any job (a queue with leases); on SQLite this process runs them. */
async function generationJobs(
  config: Config,
  database: Db,
  generation: GameGeneration,
  log: FastifyBaseLogger,
) {
  const repository = new GenerationRepository(database.db);
  if (!config.databaseUrl) return new InProcessGenerationJobs(repository, log);
  return PgBossGenerationJobs.open({
    connectionString: config.databaseUrl,
    // Beside the app's tables: its own schema (a test's schema gets one of its own too).
    schema: config.databaseSchema ? `${config.databaseSchema}_jobs` : 'pgboss',
    leaseMs: config.generationLeaseMs,
    sliceMs: config.generationSliceMs,
    drainMs: config.drainTimeoutMs,
    games: repository,
    db: database.db,
    log,
    giveUp: (gameId, why, kind) => generation.giveUp(gameId, why, kind),
  });
}
