import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import { GameStatus, fileKindOf } from '@reskin/contract';
import { isDatabaseUnavailable, retryWhileUnavailable } from '../../db/database';
import { makeSkeleton, makeWatermark, variantKey } from '../../lib/variants';
import type { Storage } from '../../storage/storage';
import type { GameFileRow, GamesRepository } from './games.repository';

/** How long a finished job keeps trying to record its end while the database is unreachable. */
const recordRetryMs = 30_000;

/**
 * Runs `work` over `items` with at most `concurrency` at a time. After a failure no new item starts; it
 * answers (with the first failure) once the items already started have ended, so nothing runs on unseen.
 */
async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length && !failure) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(workers);
  if (failure) throw failure.error;
}

/** The game was deleted, or a file changed, while its copies were being made: the job ends without a status. */
class FilesChangedError extends Error {}

/**
 * "Gen." (DESIGN.md "Games, files, variants"): a background job per game that writes the skeleton and the
 * watermarked copy of every image. The game is Generating (3) while it runs, then Ready (2) or Failed (4)
 * with the reason kept. sharp works on libuv's thread pool; one image per core runs at a time.
 */
export class GameGeneration {
  private readonly running = new Map<number, Promise<void>>();

  constructor(
    private readonly games: GamesRepository,
    private readonly storage: Storage,
    private readonly productName: string,
    private readonly log: FastifyBaseLogger,
    private readonly concurrency = availableParallelism(),
  ) {}

  /**
   * Starts generating a game unless a generation of it is already running; answers at once. The claim is one
   * conditional update, so two presses of "Gen." (even on two app servers) start one job.
   */
  async start(gameId: number): Promise<{ started: boolean }> {
    const claimed = await this.games.claimForGeneration(gameId);
    if (!claimed) return { started: false };
    const job = this.generate(gameId).finally(() => this.running.delete(gameId));
    this.running.set(gameId, job);
    return { started: true };
  }

  /** Waits for every running job (tests, and a clean shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  /** A job cut off by a restart would stay Generating for ever: mark it Failed so it can be started again. */
  async recoverInterrupted(): Promise<void> {
    const count = await this.games.failInterruptedGenerations('Generation was interrupted by a server restart; press Gen. again.');
    if (count > 0) this.log.warn(`${count} interrupted generation(s) marked Failed`);
  }

  private async generate(gameId: number): Promise<void> {
    const started = Date.now();
    try {
      const images = (await this.games.listFiles(gameId)).filter((file) => fileKindOf(file) === 'image');
      await eachLimited(images, this.concurrency, (file) => this.generateFile(file));
      await this.finish(gameId, { gameStatusTypeId: GameStatus.Ready, statusReason: null });
      this.log.info({ gameId, images: images.length, ms: Date.now() - started }, 'game generated');
    } catch (error) {
      if (error instanceof FilesChangedError) {
        // A deleted game has no status to record; a changed one is a Draft again, and Gen. may already have
        // started it anew.
        this.log.info({ gameId, reason: error.message }, 'game generation stopped');
        return;
      }
      const reason = isDatabaseUnavailable(error)
        ? 'The database was unavailable during generation; press Gen. again.'
        : error instanceof Error
          ? error.message
          : String(error);
      this.log.warn({ gameId, err: error }, 'game generation failed');
      await this.finish(gameId, { gameStatusTypeId: GameStatus.Failed, statusReason: reason.slice(0, 1900) }).catch((e: unknown) =>
        this.log.error({ gameId, err: e }, 'could not record the failed generation: the game stays Generating until the next start'),
      );
    }
  }

  /**
   * Records how a job ended. While the database is unreachable it keeps trying for a while (recordRetryMs), so a
   * short outage does not leave the game Generating, which no press of Gen. could change.
   */
  private finish(gameId: number, outcome: { gameStatusTypeId: number; statusReason: string | null }): Promise<void> {
    return retryWhileUnavailable(() => this.games.finishGeneration(gameId, outcome), recordRetryMs, (error, delayMs) =>
      this.log.warn({ gameId, err: error }, `cannot record the end of a generation yet; trying again in ${delayMs / 1000} s`),
    );
  }

  /**
   * Writes the two copies of one image. When the file is gone or has new content by the end (the game or the
   * file was deleted, or replaced), the copies just written are removed again: nobody else would, since the
   * delete removed the copies it found before they existed.
   */
  private async generateFile(file: GameFileRow): Promise<void> {
    const copies = [variantKey(file.storageKey, 'skeleton'), variantKey(file.storageKey, 'watermark')] as const;
    const object = await this.storage.get(file.storageKey);
    if (!object) {
      if (!(await this.isCurrent(file))) throw new FilesChangedError(`${file.path} was deleted or replaced`);
      this.log.error({ gameId: file.gameId, key: file.storageKey }, 'a stored game file is missing');
      throw new Error(`${file.path}: the stored file is missing.`);
    }
    try {
      const original = await buffer(object.stream);
      const [skeleton, watermark] = await Promise.all([
        makeSkeleton(original, file.path),
        makeWatermark(original, file.path, this.productName),
      ]);
      await this.storage.put(copies[0], Readable.from([skeleton]));
      await this.storage.put(copies[1], Readable.from([watermark]));
    } catch (error) {
      if (await this.isCurrent(file)) {
        throw new Error(`${file.path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    if (!(await this.isCurrent(file))) {
      await Promise.all(copies.map((key) => this.storage.delete(key)));
      throw new FilesChangedError(`${file.path} was deleted or replaced`);
    }
  }

  /** Whether the game file still exists with the content the job read. */
  private async isCurrent(file: GameFileRow): Promise<boolean> {
    return (await this.games.findFile(file.gameId, file.fileId))?.storageKey === file.storageKey;
  }
}
