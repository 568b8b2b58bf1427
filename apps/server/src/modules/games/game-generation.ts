import { availableParallelism } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { GameStatus, fileKindOf, generationFailureMessage } from '@reskin/contract';
import { retryWhileUnavailable, toIso } from '../../db/database';
import type { Timestamp } from '../../db/schema';
import { StorageFullError } from '../../storage/storage-faults';
import type { Storage } from '../../storage/storage';
import type { GameFileRow, GameFilesRepository } from './game-files.repository';
import { ImageCopies, type FramesOfImage } from './image-copies';
import type { GenerationJobs } from './generation-jobs';
import type { GenerationMetrics, GenerationSlice, JobKind } from './generation-job';
import type { GenerationRepository } from './generation.repository';
import { ImageError, gaveUpReason, generationFailureReason } from './generation-failure';

/** How long a finished job keeps trying to record its end while the database is unreachable. */
const recordRetryMs = 30_000;

/** How often a running job writes its progress (images done), which the games list shows while Generating. */
const progressIntervalMs = 250;

/**
 * Images whose copies are made at once: twice the cores. sharp gives each image's work one thread here (its
 * default on glibc), so a core always has an image to work on while others wait for storage or the database
 * (the bench's 200 images: one more than the cores 0.87x -> 0.94x bare sharp; twice the cores measured
 * 6.3-6.9 s against 7.0-7.2 s for the same work).
 */
export const imagesAtOnce = 2 * availableParallelism();

/**
 * On a job queue shared by servers, a game Generating without a job is taken back only once its claim is this
 * old: another server may be between its claim and queueing the job (milliseconds, or seconds on a slow database).
 */
export const strandedAfterMs = 30_000;

/**
 * Told, after it is recorded, of a generation that ended Failed, with the reason kept (decision 0052: the app tells
 * every active administrator in their inbox).
 */
export type GenerationFailedListener = (gameId: number, reason: string) => Promise<void>;

/**
 * "Gen." (DESIGN.md "Games, files, variants"; decision 0016): a job per game that writes the skeleton and the
 * watermarked copy of every image. The game is Generating (3) while it runs, with its progress (images done /
 * total), then Ready (2) or Failed (4) with the reason kept. Where the job runs is GenerationJobs' business: in
 * this process on SQLite, on a PostgreSQL job queue that any app server works on otherwise. A job runs in slices
 * that end before the queue's lease does, each going on from the images already done, so a job whose server died
 * goes on elsewhere where it stopped. sharp works on libuv's thread pool, `imagesAtOnce` images at a time.
 */
export class GameGeneration {
  private jobs!: GenerationJobs;
  /** Games whose job ended here without its end recorded (the database failed too), with the reason it had. */
  private readonly unrecorded = new Map<number, string>();
  /** Games a press of Gen. in this process is claiming and queueing right now. */
  private readonly claiming = new Set<number>();
  /** The work on one image: its copies and previews, written and recorded (image-copies.ts). */
  private readonly copies: ImageCopies;
  /** Told when jobs are queued, run and end (the metrics, modules/metrics/metrics.ts). */
  private metrics: GenerationMetrics | undefined;
  /** Told of each failed generation once it is recorded; until one is set (app start), the failures wait here. */
  private failed: GenerationFailedListener | undefined;
  private readonly failedBeforeListener: { gameId: number; reason: string }[] = [];

  constructor(
    private readonly games: GenerationRepository,
    private readonly files: GameFilesRepository,
    storage: Storage,
    productName: string,
    private readonly log: FastifyBaseLogger,
    framesOfImage: FramesOfImage = () => Promise.resolve([]),
    private readonly concurrency = imagesAtOnce,
  ) {
    this.copies = new ImageCopies(games, files, storage, productName, log, framesOfImage);
  }

  /**
   * Starts taking jobs from `jobs` (app start). Jobs that ran in this process only (SQLite) died with it: a Ready
   * game with images whose copies are not current gets its incremental generation again.
   */
  async open(jobs: GenerationJobs): Promise<void> {
    this.jobs = jobs;
    await jobs.start((gameId, slice, kind) => this.runSlice(gameId, slice, kind));
    for (const gameId of jobs.interruptedGames ?? [])
      void this.tellFailed(gameId, generationFailureMessage('interrupted'));
    if (jobs.exclusive) {
      for (const gameId of await this.games.readyGamesWithPendingCopies()) await this.refresh(gameId);
    }
  }

  /** Reports jobs queued, running, failed and their durations to `metrics` (GET /api/metrics). */
  useMetrics(metrics: GenerationMetrics): void {
    this.metrics = metrics;
  }

  /**
   * Calls `listener` with each generation that ended Failed, after its end is recorded (the inbox of the admins,
   * decision 0052); failures recorded before (a restart's interrupted generations) are handed over at once.
   */
  onFailed(listener: GenerationFailedListener): void {
    this.failed = listener;
    for (const { gameId, reason } of this.failedBeforeListener.splice(0))
      void this.tellFailed(gameId, reason);
  }

  /** Hands a recorded failure to the listener; its own failure is logged, never the generation's. */
  private async tellFailed(gameId: number, reason: string): Promise<void> {
    if (!this.failed) {
      this.failedBeforeListener.push({ gameId, reason });
      return;
    }
    await this.failed(gameId, reason).catch((error: unknown) =>
      this.log.error({ gameId, err: error }, 'could not tell the administrators of a failed generation'),
    );
  }

  /** Calls `listener` with a game whose file got new copies (the play origin forgets its lookups). */
  onCopiesChanged(listener: (gameId: number) => void): void {
    this.copies.copiesChanged = listener;
  }

  /**
   * Calls `listener` with a file whose copies were made again, before the image counts as done (so `idle()` waits
   * for it): versions' sheets drawn on the previous watermarked copy are drawn on the new one. Its failures are
   * logged, never the image's: the next start or services update tries again.
   */
  onCopiesReplaced(listener: (gameId: number, fileId: number) => Promise<void>): void {
    this.copies.copiesReplaced = listener;
  }

  /**
   * Queues an incremental generation of a game (decision 0024): the copies of the images whose content
   * changed since theirs were made, and of new images, through the same job queue as Gen. The game's status stays;
   * a job for a game that is not Ready ends at once (a running Gen. makes them at its end). Never throws: the
   * files are recorded whatever happens here, and the next change, restart or services update queues it again.
   */
  async refresh(gameId: number): Promise<void> {
    try {
      await this.jobs.enqueue(gameId, 'copies');
      this.metrics?.queued('copies');
    } catch (error) {
      this.log.error({ gameId, err: error }, 'could not queue the copies of changed files');
    }
  }

  /**
   * Starts generating a game unless a generation of it is already running; answers at once. The claim is one
   * conditional update, so two presses of "Gen." (even on two app servers) start one job. A game left Generating
   * with no job to end it (a job whose end could not be recorded: the disk was full, say) is claimed anew.
   */
  async start(gameId: number): Promise<{ started: boolean }> {
    if (this.claiming.has(gameId)) return { started: false };
    this.claiming.add(gameId);
    try {
      const claimed = (await this.games.claimForGeneration(gameId)) || (await this.reclaimStranded(gameId));
      if (!claimed) return { started: false };
      this.unrecorded.delete(gameId);
      try {
        await this.jobs.enqueue(gameId, 'full');
        this.metrics?.queued('full');
      } catch (error) {
        this.log.error({ gameId, err: error }, 'could not queue a generation');
        this.metrics?.ended(gameId, 'full', 'failed');
        await this.finish(gameId, {
          gameStatusTypeId: GameStatus.Failed,
          statusReason: generationFailureMessage('not_queued'),
        });
        throw error;
      }
      return { started: true };
    } finally {
      this.claiming.delete(gameId);
    }
  }

  /**
   * Whether a Generating game has no job that will end it: none queued or running, and no press in flight here;
   * on a queue shared by servers also known here to be so, or claimed more than strandedAfterMs ago.
   */
  private async isStranded(gameId: number, updatedAt: Timestamp): Promise<boolean> {
    if (await this.jobs.hasJob(gameId)) return false;
    return (
      this.jobs.exclusive ||
      this.unrecorded.has(gameId) ||
      Date.now() - Date.parse(toIso(updatedAt)) >= strandedAfterMs
    );
  }

  /** Claims a stranded game (isStranded) for a new generation; false when it is not one. */
  private async reclaimStranded(gameId: number): Promise<boolean> {
    const state = await this.games.generationState(gameId);
    if (
      state?.gameStatusTypeId !== GameStatus.Generating ||
      !(await this.isStranded(gameId, state.updatedAt))
    )
      return false;
    const claimed = await this.games.reclaimGeneration(gameId, state.updatedAt);
    if (claimed) this.log.warn({ gameId }, 'a generation whose end was never recorded is started anew');
    return claimed;
  }

  /**
   * The services update's part: marks Failed every game left Generating with no job to end it (isStranded), with
   * the reason its job had when this server knows it. Answers their ids.
   */
  async failStranded(): Promise<number[]> {
    const failed: number[] = [];
    for (const { id, updatedAt } of await this.games.generatingGames()) {
      if (this.claiming.has(id) || !(await this.isStranded(id, updatedAt))) continue;
      const reason = this.unrecorded.get(id) ?? generationFailureMessage('not_recorded');
      await this.finish(id, { gameStatusTypeId: GameStatus.Failed, statusReason: reason });
      this.unrecorded.delete(id);
      failed.push(id);
    }
    if (failed.length > 0)
      this.log.warn({ gameIds: failed }, 'generations whose end was never recorded are marked Failed');
    return failed;
  }

  /** Waits until every generation has ended (tests). */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  /** Stops taking jobs; the slice running here finishes first (app close). */
  close(): Promise<void> {
    return this.jobs.close();
  }

  /**
   * Ends a job that its queue gave up on (retries used up, or its servers kept dying): the game is Failed with
   * the reason, so Gen. can be pressed again.
   */
  async giveUp(gameId: number, why: string, kind: JobKind = 'full'): Promise<void> {
    // The copies of changed files: the game stays Ready; the next change, restart or services update tries again.
    this.metrics?.ended(gameId, kind, 'failed');
    if (kind === 'copies')
      return void this.log.warn({ gameId, why }, 'the copies of changed files were given up');
    this.log.warn({ gameId, why }, 'game generation given up');
    await this.finish(gameId, { gameStatusTypeId: GameStatus.Failed, statusReason: gaveUpReason(why) });
  }

  /**
   * One slice of a job: makes the copies of the images not done yet, in order, until all are done ('done') or
   * the deadline has passed ('more': the queue runs the next slice). A game no longer Generating (finished,
   * deleted, changed back to Draft) ends the job. A file replaced or deleted meanwhile is skipped, and before the
   * game is Ready the images whose copies are not current (changed during the run) get theirs. A 'copies' job
   * is an incremental generation (runCopiesSlice).
   */
  async runSlice(gameId: number, slice: GenerationSlice, kind: JobKind = 'full'): Promise<'done' | 'more'> {
    this.metrics?.sliceStarted(gameId, kind);
    try {
      return await (kind === 'copies'
        ? this.runCopiesSlice(gameId, slice)
        : this.runFullSlice(gameId, slice));
    } finally {
      this.metrics?.sliceEnded(kind);
    }
  }

  /** One slice of a Gen. job (runSlice). */
  private async runFullSlice(gameId: number, slice: GenerationSlice): Promise<'done' | 'more'> {
    const started = Date.now();
    try {
      const state = await this.games.generationState(gameId);
      if (state?.gameStatusTypeId !== GameStatus.Generating) {
        this.metrics?.dropped(gameId, 'full');
        return 'done';
      }
      const images = (await this.files.listFiles(gameId))
        .filter((file) => fileKindOf(file) === 'image')
        .sort((a, b) => a.fileId - b.fileId);
      if (state.generationDone === 0) await this.games.recordProgress(gameId, 0, images.length);
      this.log.info(
        { gameId, done: state.generationDone, images: images.length },
        'game generation slice started',
      );
      const done = await this.generateFrom(gameId, images, state.generationDone, slice);
      if (done < images.length || (await this.makePending(gameId, slice, false))) {
        this.log.info(
          { gameId, done, images: images.length, ms: Date.now() - started },
          'game generation goes on in a next slice',
        );
        return 'more';
      }
      await this.finish(gameId, { gameStatusTypeId: GameStatus.Ready, statusReason: null });
      this.metrics?.ended(gameId, 'full', 'ready');
      this.log.info({ gameId, images: images.length, ms: Date.now() - started }, 'game generated');
      // A file changed after the last look: its upload's incremental job ended at once while the game was Generating.
      if ((await this.games.pendingCopies(gameId)).length > 0) await this.refresh(gameId);
      return 'done';
    } catch (error) {
      // A full disk will not have room a few seconds later either: the admin frees space and presses Gen. again.
      if (!(error instanceof ImageError) && !(error instanceof StorageFullError) && slice.retryable) {
        this.log.warn({ gameId, err: error }, 'game generation failed; the job queue tries again');
        throw error;
      }
      // The reason in words (decision 0052); the library's own message stays in the log.
      const reason = generationFailureReason(error);
      this.log.warn({ gameId, err: error, reason }, 'game generation failed');
      this.metrics?.ended(gameId, 'full', 'failed');
      await this.finish(gameId, { gameStatusTypeId: GameStatus.Failed, statusReason: reason }).catch(
        (e: unknown) => {
          // The database failed too (SQLITE_FULL on the same full disk): the game stays Generating with no job, which
          // the next press of Gen. or the services update ends (reclaimStranded, failStranded).
          this.unrecorded.set(gameId, reason);
          this.log.error(
            { gameId, err: e },
            'could not record the failed generation: the next Gen. or the services update ends it',
          );
        },
      );
      return 'done';
    }
  }

  /**
   * One slice of an incremental generation (decision 0024): the copies of a Ready game's images whose copies are
   * not current, until none is left ('done') or the deadline has passed ('more'). The game stays Ready whatever
   * happens: an image that cannot be made is logged and keeps its previous copies (Gen. reports it); a transient
   * failure is retried by a queue that retries, else the next change, restart or services update tries again.
   */
  private async runCopiesSlice(gameId: number, slice: GenerationSlice): Promise<'done' | 'more'> {
    const started = Date.now();
    try {
      const state = await this.games.generationState(gameId);
      if (state?.gameStatusTypeId !== GameStatus.Ready) {
        this.metrics?.dropped(gameId, 'copies');
        return 'done';
      }
      const more = await this.makePending(gameId, slice, true);
      this.log.info({ gameId, more, ms: Date.now() - started }, 'copies of changed files made');
      if (!more) this.metrics?.ended(gameId, 'copies', 'ready');
      return more ? 'more' : 'done';
    } catch (error) {
      if (!(error instanceof StorageFullError) && slice.retryable) {
        this.log.warn(
          { gameId, err: error },
          'making the copies of changed files failed; the job queue tries again',
        );
        throw error;
      }
      this.log.warn({ gameId, err: error }, 'making the copies of changed files failed');
      this.metrics?.ended(gameId, 'copies', 'failed');
      return 'done';
    }
  }

  /**
   * Makes the copies of a game's images whose copies are not current, at most `concurrency` at a time, starting
   * none after the slice's deadline; true when some were left for a next slice. An image that cannot be made is skipped
   * (logged) with `skipBroken`, else it throws once those started have ended, as any other failure does.
   */
  private async makePending(gameId: number, slice: GenerationSlice, skipBroken: boolean): Promise<boolean> {
    const pending = await this.games.pendingCopies(gameId);
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async () => {
      while (next < pending.length && !failure && Date.now() < slice.deadline) {
        const file = pending[next++]!;
        try {
          await this.copies.make(file);
        } catch (error) {
          if (skipBroken && error instanceof ImageError) {
            this.log.warn(
              { gameId, err: error },
              'an image whose copies cannot be made keeps its previous ones',
            );
            continue;
          }
          failure ??= { error };
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, pending.length) }, worker));
    if (failure) throw failure.error;
    return next < pending.length;
  }

  /**
   * Makes the copies of images[from...], at most `concurrency` at a time, starting no image after the slice's deadline,
   * and records progress as the run of done images from the start grows. Answers how many are done. After a
   * failure no new image starts; it throws (the first failure) once those started have ended.
   */
  private async generateFrom(
    gameId: number,
    images: GameFileRow[],
    from: number,
    slice: GenerationSlice,
  ): Promise<number> {
    let next = from;
    let done = from;
    const finished = new Set<number>();
    let failure: { error: unknown } | undefined;
    let recorded = from;
    let recordedAt = Date.now();
    const worker = async () => {
      while (next < images.length && !failure && Date.now() < slice.deadline) {
        const index = next++;
        try {
          await this.copies.make(images[index]!);
        } catch (error) {
          failure ??= { error };
          return;
        }
        finished.add(index);
        while (finished.delete(done)) done++;
        // A write per image was a database commit (on SQLite a sync of its log, on the event loop) per image:
        // progress is written every progressIntervalMs, and once more at the end of the slice.
        if (done > recorded && Date.now() - recordedAt >= progressIntervalMs) {
          recorded = done;
          recordedAt = Date.now();
          await this.games.recordProgress(gameId, done);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, images.length - from) }, worker));
    // After a failure the next try redoes the images since the last write: at most progressIntervalMs of work.
    if (failure) throw failure.error;
    if (done > recorded) await this.games.recordProgress(gameId, done);
    return done;
  }

  /**
   * Records how a job ended. While the database is unreachable it keeps trying for a while (recordRetryMs), so a
   * short outage does not leave the game Generating, which no press of Gen. could change.
   */
  private async finish(
    gameId: number,
    outcome: { gameStatusTypeId: number; statusReason: string | null },
  ): Promise<void> {
    const recorded = { ...outcome, statusReason: outcome.statusReason?.slice(0, 1900) ?? null };
    const changed = await retryWhileUnavailable(
      () => this.games.finishGeneration(gameId, recorded),
      recordRetryMs,
      (error, delayMs) =>
        this.log.warn(
          { gameId, err: error },
          `cannot record the end of a generation yet; trying again in ${delayMs / 1000} s`,
        ),
    );
    // Awaited, so a job (and idle()) ends once the administrators are told.
    if (changed && recorded.gameStatusTypeId === GameStatus.Failed)
      await this.tellFailed(gameId, recorded.statusReason ?? generationFailureMessage('unknown'));
  }
}
