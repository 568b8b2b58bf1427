import type { FastifyBaseLogger } from 'fastify';
import { generationFailureMessage } from '@reskin/contract';
import type { GenerationRepository } from './generation.repository';
import type { JobKind, SliceRunner } from './generation-job';

/**
 * Where "Gen." jobs run (decision 0016): in this process (SQLite: one server) or on a PostgreSQL job queue that
 * every app server works on (generation-queue.ts, decision 0064). GameGeneration claims the game, then hands the job here.
 */
export interface GenerationJobs {
  /** Starts running jobs with `run` (app start). */
  start(run: SliceRunner): Promise<void>;
  /** Queues a job: Gen. for a game already claimed (Generating), or the copies of a game's changed files. */
  enqueue(gameId: number, kind: JobKind): Promise<void>;
  /**
   * Whether a Gen. job of the game is queued, running or waiting to be retried (or given up, not yet recorded):
   * false for a game left Generating whose end could not be recorded.
   */
  hasJob(gameId: number): Promise<boolean>;
  /** True when every job runs in this process (hasJob knows every claim); false on a queue shared by servers. */
  readonly exclusive: boolean;
  /** The games start() marked Failed because a restart interrupted their generation (their admins are told). */
  readonly interruptedGames?: readonly number[];
  /** Waits until no generation runs any more (tests). */
  idle(): Promise<void>;
  /** Stops taking jobs, letting the slice running here end (app close). */
  close(): Promise<void>;
}

/**
 * SQLite: one process, so a job runs here at once, as one slice with no deadline, and a failure ends it Failed
 * (nothing could retry it elsewhere). At start nothing can be running: a game left Generating by a crash is
 * marked Failed so Gen. can be pressed again.
 */
export class InProcessGenerationJobs implements GenerationJobs {
  readonly exclusive = true;
  interruptedGames: readonly number[] = [];
  private run!: SliceRunner;
  private readonly running = new Set<Promise<unknown>>();
  /** The games whose Gen. job runs here, and how many (a job per game, but counted to stay right). */
  private readonly runningGames = new Map<number, number>();

  constructor(
    private readonly games: GenerationRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(run: SliceRunner): Promise<void> {
    this.run = run;
    this.interruptedGames = await this.games.failInterruptedGenerations(
      generationFailureMessage('interrupted'),
    );
    if (this.interruptedGames.length > 0)
      this.log.warn({ gameIds: this.interruptedGames }, 'interrupted generations marked Failed');
  }

  async enqueue(gameId: number, kind: JobKind): Promise<void> {
    const full = kind === 'full';
    if (full) this.runningGames.set(gameId, (this.runningGames.get(gameId) ?? 0) + 1);
    const job = this.run(gameId, { deadline: Number.POSITIVE_INFINITY, retryable: false }, kind).finally(
      () => {
        this.running.delete(job);
        if (!full) return;
        const left = (this.runningGames.get(gameId) ?? 1) - 1;
        if (left > 0) this.runningGames.set(gameId, left);
        else this.runningGames.delete(gameId);
      },
    );
    this.running.add(job);
  }

  async hasJob(gameId: number): Promise<boolean> {
    return this.runningGames.has(gameId);
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  close(): Promise<void> {
    return this.idle();
  }
}
