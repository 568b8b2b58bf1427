import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Database } from '../../db/schema';
import type { GenerationJobs } from './generation-jobs';
import type { GenerationRepository } from './generation.repository';
import type { GenerationSlice, JobKind, SliceRunner } from './generation-job';

/** A job's data; a job queued before decision 0024 has no kind and is a Gen. */
interface JobData {
  gameId: number;
  kind?: JobKind;
}

type QueuedJob = PgBoss.JobWithMetadata<JobData>;

interface RunningJob {
  job: QueuedJob;
  lease: JobLease | undefined;
}

/** One of the app's pooled database connections, held by a job while it runs here. */
type Connection = Kysely<Database> | Transaction<Database>;

/** The queue of generation jobs, and the queue a job moves to when it has failed for good. */
const queue = 'generate-game';
const deadLetterQueue = 'generate-game-failed';
/** The advisory lock under which a starting server sets the queue up (any number, the same on every server). */
const queueSetupLock = 7_314_250_014;
/** How long a slice starts images before the next slice is queued (other games' jobs go in between). */
const defaultSliceMs = 5000;
/** How often an idle worker looks for a job another server queued; one queued here wakes it at once. */
const pollMs = 500;
/** How often a job whose game another live server is working tries the game's lock again, and for how long. */
const lockRetryMs = 200;
const lockWaitMs = 60_000;
/** A slice this long past its deadline is taken for stuck: its lease is no longer renewed. */
const stuckAfterMs = 5 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PgBossGenerationJobsOptions {
  connectionString: string;
  /** pg-boss's own schema (its tables: jobs, queues); beside the app's tables, never in them. */
  schema: string;
  /** GENERATION_LEASE_SECONDS in ms: how long a job whose server stopped renewing it waits before another takes it. */
  leaseMs: number;
  /** How long a slice starts images before the next is queued (default 5 s). */
  sliceMs?: number | undefined;
  /** How long close() lets a running slice finish (DRAIN_TIMEOUT_SECONDS). */
  drainMs: number;
  games: GenerationRepository;
  /** The app's database: the game's lock, the lease's renewals, the lock that lets one starting server set the queue up. */
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** Called with a job that failed for good (retries used up, or its server kept dying). */
  giveUp: (gameId: number, why: string, kind: JobKind) => Promise<void>;
}

/**
 * A job's hold on the queue while it runs here: its row in pg-boss's job table is renewed (`started_on`, from
 * which pg-boss counts the lease) every heartbeat. Renewal finds the row no longer this run's (it expired and was
 * retried, or close() gave it back) when the job was lost: the slice is told to start no more images.
 */
class JobLease {
  lost = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly connection: Connection,
    private readonly schema: string,
    private readonly job: QueuedJob,
    private readonly slice: GenerationSlice,
    heartbeatMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => void this.renew(), heartbeatMs);
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    // A slice stuck far past its deadline lets its lease run out: another server tries the job (decision 0064).
    if (Date.now() > this.slice.deadline + stuckAfterMs) return this.stop();
    try {
      // retry_count tells this run of the job from a retry of it, which keeps the job's id.
      const { numAffectedRows } = await sql`
        update ${sql.table(`${this.schema}.job`)} set started_on = now()
        where name = ${queue} and id = ${this.job.id} and state = 'active' and retry_count = ${this.job.retryCount}`.execute(
        this.connection,
      );
      if (numAffectedRows === 0n) this.lose();
    } catch (error) {
      // The game's lock still keeps other servers off; the next heartbeat tries again.
      this.log.warn({ err: error, gameId: this.job.data.gameId }, 'could not renew a generation job');
    }
  }

  /** The job is no longer this run's: the slice starts no more images. */
  lose(): void {
    this.lost = true;
    this.slice.deadline = 0;
    this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * PostgreSQL: generation jobs in pg-boss (decisions 0016 and 0064), a PostgreSQL job queue that every app server
 * works on.
 *
 * - One server at a time: a server works a game's job only while it holds the game's advisory lock (the queue's
 *   schema and the game's id), which its database session keeps until the slice ends. A killed server's session,
 *   and with it the lock, is gone at once.
 * - The lease: a running job's row is renewed every second (JobLease); a job not renewed for GENERATION_LEASE_SECONDS
 *   expires (pg-boss's maintenance, every second) and is retried by whichever server fetches it, which goes on from
 *   the images already done. A live server keeps its job however long an image takes.
 * - Slices: a job starts images for 5 s and then queues the next slice (unless one is waiting already), so the
 *   jobs of several games take turns.
 * - Retries: a slice that fails (storage or database trouble) is retried 3 times with growing delays; then, or
 *   when its servers kept dying, the job goes to the dead-letter queue and the game is marked Failed.
 * - The server that queues a job wakes its own worker, so a job starts at once rather than at the next poll.
 */
export class PgBossGenerationJobs implements GenerationJobs {
  readonly exclusive = false;
  private readonly boss: PgBoss;
  private run!: SliceRunner;
  private worker: Promise<void> | undefined;
  private stopping = false;
  /** A job was queued here since the worker last looked: it looks again before sleeping. */
  private woken = false;
  /** Ends the worker's sleep between polls. */
  private wake: () => void = () => {};
  /** The job running here (the worker runs one at a time), with its lease once it has one. */
  private current: RunningJob | undefined;

  /** Loads pg-boss, used only on PostgreSQL (a server on SQLite never loads it), and makes the queue. */
  static async open(options: PgBossGenerationJobsOptions): Promise<PgBossGenerationJobs> {
    const { default: PgBossClass } = await import('pg-boss');
    return new PgBossGenerationJobs(options, PgBossClass);
  }

  private constructor(
    private readonly options: PgBossGenerationJobsOptions,
    PgBossClass: typeof PgBoss,
  ) {
    this.boss = new PgBossClass({
      connectionString: options.connectionString,
      schema: options.schema,
      max: 3,
      application_name: 'reskin-studio-jobs',
      // Expired jobs are found by maintenance (one server's a time, a cheap query) every second instead of every
      // 2 minutes: a dead server's job moves within the lease and a second or two.
      maintenanceIntervalSeconds: 1,
      schedule: false,
    });
    this.boss.on('error', (error: Error) => options.log.warn({ err: error }, 'generation job queue error'));
  }

  private get leaseSeconds(): number {
    return Math.max(1, Math.round(this.options.leaseMs / 1000));
  }

  async start(run: SliceRunner): Promise<void> {
    this.run = run;
    // Servers starting at once on a new database would install pg-boss's schema and create the queues together,
    // which deadlocks in PostgreSQL: one server at a time does it, under an advisory lock.
    await this.options.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${queueSetupLock})`.execute(connection);
      try {
        await this.boss.start();
        await this.createQueue(deadLetterQueue, {});
        // The first retry (of a slice whose server died, or that failed) comes 1 to 2 s later, then 2 to 4 s and 4 to 8 s
        // (pg-boss's backoff with jitter).
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
    this.worker = this.work();
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

  /**
   * The worker: fetches a job, runs it, and so on; sleeps between polls while the queue is empty. Not pg-boss's
   * work(), which fails a job still running when its lease is over: here a live server renews the lease instead.
   */
  private async work(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      let job: QueuedJob | undefined;
      try {
        [job] = await this.boss.fetch<JobData>(queue, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        this.options.log.warn({ err: error }, 'could not fetch a generation job');
      }
      if (job) {
        this.current = { job, lease: undefined };
        await this.runJob(this.current);
        this.current = undefined;
      } else if (!this.woken && !this.stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        this.wake = () => {};
      }
    }
  }

  /**
   * Runs one slice of a job under the game's lock with its lease renewed, queues the next slice when there is more
   * to do and none is waiting, and completes the job (or fails it, for a retry).
   */
  private async runJob(running: RunningJob): Promise<void> {
    const { job } = running;
    const { gameId } = job.data;
    const kind = job.data.kind ?? 'full';
    const slice: GenerationSlice = { deadline: Number.POSITIVE_INFINITY, retryable: true };
    await this.options.db.connection().execute(async (connection) => {
      const lease = new JobLease(
        connection,
        this.options.schema,
        job,
        slice,
        Math.min(1000, this.options.leaseMs / 4),
        this.options.log,
      );
      running.lease = lease;
      try {
        if (!(await this.lockGame(connection, gameId, lease))) return;
        try {
          slice.deadline = lease.lost ? 0 : Date.now() + (this.options.sliceMs ?? defaultSliceMs);
          const outcome = await this.run(gameId, slice, kind);
          // A waiting job of the game goes on with it (a retry of this one, say): one chain of slices per job.
          if (outcome === 'more' && !lease.lost && !(await this.waitingJob(connection, gameId, kind)))
            await this.enqueue(gameId, kind);
        } finally {
          await sql`select pg_advisory_unlock(hashtext(${this.options.schema}), ${gameId})`.execute(
            connection,
          );
        }
        if (!lease.lost) await this.boss.complete(queue, job.id);
      } catch (error) {
        this.options.log.warn({ gameId, err: error }, 'a generation job failed; the queue tries it again');
        const message = error instanceof Error ? error.message : String(error);
        if (!lease.lost) await this.boss.fail(queue, job.id, { message }).catch(() => {});
      } finally {
        lease.stop();
      }
    });
  }

  /**
   * Takes the game's lock: false when the job was lost meanwhile. Another server's live slice holds it for a few
   * seconds at most (its job had expired while it ran: a retry of it came here); a dead server's lock went with
   * its session. Waiting too long throws, for a retry.
   */
  private async lockGame(connection: Connection, gameId: number, lease: JobLease): Promise<boolean> {
    // A server whose machine vanished keeps its session (and the lock) until PostgreSQL's keep-alive gives up on it.
    await sql`select set_config('tcp_keepalives_idle', ${String(this.leaseSeconds)}, false),
      set_config('tcp_keepalives_interval', '1', false), set_config('tcp_keepalives_count', '3', false)`.execute(
      connection,
    );
    const until = Date.now() + lockWaitMs;
    for (let tries = 0; ; tries++) {
      const { rows } = await sql<{ locked: boolean }>`
        select pg_try_advisory_lock(hashtext(${this.options.schema}), ${gameId}) as locked`.execute(
        connection,
      );
      if (rows[0]?.locked) return true;
      if (lease.lost || this.stopping) return false;
      if (Date.now() > until) throw new Error('another server kept working the game');
      if (tries === 0)
        this.options.log.info(
          { gameId },
          'a generation job waits for another server to end its slice of the game',
        );
      await sleep(lockRetryMs);
    }
  }

  /** Whether a job of the game (of this kind) waits in the queue. */
  private async waitingJob(connection: Connection, gameId: number, kind: JobKind): Promise<boolean> {
    const { rows } = await sql<{ found: number }>`
      select 1 as found from ${sql.table(`${this.options.schema}.job`)}
      where name = ${queue} and state in ('created', 'retry')
        and data->>'gameId' = ${String(gameId)} and coalesce(data->>'kind', 'full') = ${kind}
      limit 1`.execute(connection);
    return rows.length > 0;
  }

  async enqueue(gameId: number, kind: JobKind): Promise<void> {
    await this.boss.send(queue, { gameId, kind } satisfies JobData);
    this.woken = true;
    this.wake();
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

  /** Polls until no game is Generating and no job runs here: every job, on any server, has ended. */
  async idle(): Promise<void> {
    while (this.current || (await this.options.games.anyGenerating())) await sleep(50);
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.wake();
    const current = this.current;
    const ended = await Promise.race([
      this.worker?.then(() => true),
      sleep(this.options.drainMs).then(() => false),
    ]);
    if (!ended && current?.lease && !current.lease.lost) {
      // Still running after the drain time: the job goes back to the queue, and another server takes it over once
      // this process has exited (its session, and the game's lock, end with it).
      current.lease.lose();
      await this.boss.fail(queue, current.job.id, { message: 'its server stopped' }).catch(() => {});
    }
    await this.boss.stop({ graceful: true, timeout: this.options.drainMs, wait: true });
  }
}
