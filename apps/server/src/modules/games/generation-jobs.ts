import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import { generationFailureMessage } from '@reskin/contract';
import type { Database } from '../../db/schema';
import type { GenerationRepository } from './generation.repository';
import type { JobKind, SliceRunner } from './generation-job';

/**
 * Where "Gen." jobs run (decision 0016): in this process (SQLite: one server) or on a PostgreSQL job queue that
 * every app server works on. GameGeneration claims the game, then hands the job here.
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

/** A job's data; a job queued before decision 0024 has no kind and is a Gen. */
interface JobData {
  gameId: number;
  kind?: JobKind;
}

/** The queue of generation jobs, and the queue a job moves to when it has failed for good. */
const queue = 'generate-game';
const deadLetterQueue = 'generate-game-failed';
/** The advisory lock under which a starting server sets the queue up (any number, the same on every server). */
const queueSetupLock = 7_314_250_014;

export interface PgBossGenerationJobsOptions {
  connectionString: string;
  /** pg-boss's own schema (its tables: jobs, queues); beside the app's tables, never in them. */
  schema: string;
  /** GENERATION_LEASE_SECONDS in ms: how long a job may hold a server before another may take it over. */
  leaseMs: number;
  /** How long a slice runs before the next is queued; at most (and by default) half the lease. */
  sliceMs?: number | undefined;
  /** How long close() lets a running slice finish (DRAIN_TIMEOUT_SECONDS). */
  drainMs: number;
  games: GenerationRepository;
  /** The app's database, for the lock that lets one starting server at a time set the queue up. */
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** Called with a job that failed for good (retries used up, or its server kept dying). */
  giveUp: (gameId: number, why: string, kind: JobKind) => Promise<void>;
}

/**
 * PostgreSQL: generation jobs in pg-boss (decision 0016), a PostgreSQL job queue that every app server works on.
 *
 * - The lease: a job is `active` for at most GENERATION_LEASE_SECONDS (pg-boss's expireInSeconds). A worker runs
 *   a slice until half the lease has passed and then queues the next slice, so a live server never loses its job;
 *   a dead one's job expires, and pg-boss's maintenance (every quarter lease here, not its default 2 minutes)
 *   puts it back for another server, which goes on from the images already done.
 * - Retries: a slice that fails (storage or database trouble) is retried 3 times with growing delays; then, or
 *   when its servers kept dying, the job goes to the dead-letter queue and the game is marked Failed.
 * - The server that queues a job wakes its own worker, so a job starts at once rather than at the next poll.
 */
export class PgBossGenerationJobs implements GenerationJobs {
  readonly exclusive = false;
  private readonly boss: PgBoss;
  private workerId: string | undefined;
  /** The slices running in this process. */
  private readonly running = new Set<Promise<unknown>>();

  /** Loads pg-boss, used only on PostgreSQL (a server on SQLite never loads it), and makes the queue. */
  static async open(options: PgBossGenerationJobsOptions): Promise<PgBossGenerationJobs> {
    const { default: PgBossClass } = await import('pg-boss');
    return new PgBossGenerationJobs(options, PgBossClass);
  }

  private constructor(
    private readonly options: PgBossGenerationJobsOptions,
    PgBossClass: typeof PgBoss,
  ) {
    const leaseSeconds = Math.max(1, Math.round(options.leaseMs / 1000));
    this.boss = new PgBossClass({
      connectionString: options.connectionString,
      schema: options.schema,
      max: 3,
      application_name: 'reskin-studio-jobs',
      // Expired jobs are found by maintenance (one server's a time, a cheap query): every second of a 10 s lease, so a
      // dead server's job moves within the lease and about 3 s more (within 15 s of a SIGKILL).
      maintenanceIntervalSeconds: Math.max(1, Math.floor(leaseSeconds / 10)),
      schedule: false,
    });
    this.boss.on('error', (error: Error) => options.log.warn({ err: error }, 'generation job queue error'));
  }

  private get leaseSeconds(): number {
    return Math.max(1, Math.round(this.options.leaseMs / 1000));
  }

  async start(run: SliceRunner): Promise<void> {
    // Servers starting at once on a new database would install pg-boss's schema and create the queues together,
    // which deadlocks in PostgreSQL: one server at a time does it, under an advisory lock.
    await this.options.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${queueSetupLock})`.execute(connection);
      try {
        await this.boss.start();
        await this.createQueue(deadLetterQueue, {});
        // The first retry (of a slice whose server died, or that failed) comes 1 to 2 s later, then 2 to 4 s and 4 to 8 s
        // (pg-boss's backoff with jitter): a dead server's job goes on within the lease and a few seconds.
        const settings = {
          expireInSeconds: this.leaseSeconds,
          retryLimit: 3,
          retryDelay: 1,
          retryBackoff: true,
          deadLetter: deadLetterQueue,
        };
        await this.createQueue(queue, settings);
        // A queue made by an earlier release keeps its own settings until told: the lease and retries follow the config.
        await this.boss.updateQueue(queue, { name: queue, ...settings });
      } finally {
        await sql`select pg_advisory_unlock(${queueSetupLock})`.execute(connection);
      }
    });
    this.workerId = await this.boss.work<JobData>(
      queue,
      { batchSize: 1, pollingIntervalSeconds: 1 },
      async ([job]) => {
        const { gameId } = job!.data;
        const kind = job!.data.kind ?? 'full';
        // Half the lease: the slice ends, and the next is queued, well before the job could expire.
        const sliceMs = Math.min(this.options.sliceMs ?? Infinity, this.options.leaseMs / 2);
        const slice = run(gameId, { deadline: Date.now() + sliceMs, retryable: true }, kind);
        this.running.add(slice);
        try {
          if ((await slice) === 'more') await this.enqueue(gameId, kind);
        } finally {
          this.running.delete(slice);
        }
      },
    );
    await this.boss.work<JobData>(
      deadLetterQueue,
      { batchSize: 1, pollingIntervalSeconds: 2, includeMetadata: true },
      async ([job]) => {
        const output = (job as unknown as { output?: { message?: string; value?: { message?: string } } })
          .output;
        await this.options.giveUp(
          job!.data.gameId,
          output?.message ?? output?.value?.message ?? 'it failed several times',
          job!.data.kind ?? 'full',
        );
      },
    );
  }

  /** Creates a queue unless it exists (several servers start at once). */
  private async createQueue(name: string, options: Record<string, unknown>): Promise<void> {
    if (await this.boss.getQueue(name)) return;
    try {
      await this.boss.createQueue(name, { name, ...options });
    } catch (error) {
      if (!(await this.boss.getQueue(name))) throw error;
    }
  }

  async enqueue(gameId: number, kind: JobKind): Promise<void> {
    await this.boss.send(queue, { gameId, kind } satisfies JobData);
    if (this.workerId) this.boss.notifyWorker(this.workerId);
  }

  async hasJob(gameId: number): Promise<boolean> {
    // pg-boss keeps each job as a row of its job table (partitioned by queue), with `data` as jsonb.
    const row = await sql<{ found: number }>`
      select 1 as found from ${sql.table(`${this.options.schema}.job`)}
      where name in (${queue}, ${deadLetterQueue}) and state in ('created', 'retry', 'active')
        and data->>'gameId' = ${String(gameId)} and coalesce(data->>'kind', 'full') = 'full'
      limit 1`.execute(this.options.db);
    return row.rows.length > 0;
  }

  /** Polls until no game is Generating and no slice runs here: every job, on any server, has ended. */
  async idle(): Promise<void> {
    while (this.running.size > 0 || (await this.options.games.anyGenerating())) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    // A slice still running after the drain time is failed back to the queue, so another server takes it over.
    await this.boss.stop({ graceful: true, timeout: this.options.drainMs, wait: true });
  }
}
