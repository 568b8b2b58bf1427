import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { isDatabaseUnavailable } from '../../db/database';
import { StorageUnavailableError, fullVolumeOf, isTaggedStorageFault } from '../../storage/storage-faults';
import type { GenerationMetrics } from '../games/generation-job';

/** The path of the scrape route; its own requests stay out of the request histogram. */
export const metricsPath = '/api/metrics';

/**
 * The server's Prometheus metrics (decision 0031), one registry per app (tests build many apps in one
 * process, so never prom-client's global registry): the API's request durations by route pattern and status,
 * generation jobs, the play origin's bytes and lookups kept, and storage and database errors. Counted in this
 * process: with several app servers Prometheus scrapes each and sums.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly requestDuration = new Histogram({
    name: 'reskin_http_request_duration_seconds',
    help: 'API and web app requests by route pattern (unmatched: no route), method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  private readonly jobsQueued = new Counter({
    name: 'reskin_generation_jobs_queued_total',
    help: 'Generation jobs queued by this server (full: Gen.; copies: the copies of changed files).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly jobsRunning = new Gauge({
    name: 'reskin_generation_jobs_running',
    help: 'Generation job slices running in this server now.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly jobsFailed = new Counter({
    name: 'reskin_generation_jobs_failed_total',
    help: 'Generation jobs ended Failed by this server (an image that cannot be made, a full disk, retries used up).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly jobDuration = new Histogram({
    name: 'reskin_generation_job_duration_seconds',
    help: 'Generation jobs ended by this server, from their first slice here to their end, by kind and outcome.',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [this.registry],
  });

  private readonly playBytes = new Counter({
    name: 'reskin_play_bytes_total',
    help: 'Bytes of the bodies the play origin sent (Content-Length; an X-Accel-Redirect answer sends none itself).',
    registers: [this.registry],
  });

  private readonly playBodies = new Counter({
    name: 'reskin_play_bodies_total',
    help: 'Play origin answers from its kept bodies (PLAY_BODY_CACHE_MB): kept="true" a hit, "false" compressed or read and kept now; by encoding.',
    labelNames: ['kept', 'encoding'] as const,
    registers: [this.registry],
  });

  private readonly playLookups = new Counter({
    name: 'reskin_play_file_lookups_total',
    help: 'Play origin file lookups: kept="true" answered from the kept lookups (a cache hit), "false" from the database.',
    labelNames: ['kept'] as const,
    registers: [this.registry],
  });

  private readonly storageErrors = new Counter({
    name: 'reskin_storage_errors_total',
    help: 'Requests answered 503 STORAGE_UNAVAILABLE (kind="unavailable") or 507 STORAGE_FULL (kind="full"), both origins.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly databaseErrors = new Counter({
    name: 'reskin_database_errors_total',
    help: 'Requests answered 503 DATABASE_UNAVAILABLE (kind="unavailable"), both origins.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  /** Start times of the jobs running here, by kind and game, for their duration. */
  private readonly jobStarts = new Map<string, number>();

  /** The text Prometheus scrapes. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Times every request of an app by its route pattern (never the raw URL), except the scrapes themselves. */
  timeRequests(app: FastifyInstance): void {
    // A callback hook: no promise per request.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route !== metricsPath)
        this.requestDuration.observe(
          { method: request.method, route, status: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
      done();
    });
  }

  /**
   * Counts the storage and database failures an app's error handler answers (plugins/error-envelope.ts, whose
   * order this follows: a full volume, then storage, then the database).
   */
  countFaults(app: FastifyInstance): void {
    app.addHook('onError', async (_request, _reply, error: FastifyError) => {
      if (fullVolumeOf(error)) this.storageErrors.inc({ kind: 'full' });
      else if (error instanceof StorageUnavailableError || isTaggedStorageFault(error))
        this.storageErrors.inc({ kind: 'unavailable' });
      else if (isDatabaseUnavailable(error)) this.databaseErrors.inc({ kind: 'unavailable' });
    });
  }

  /** Counts the bytes of every answer of the play origin. */
  countPlayBytes(app: FastifyInstance): void {
    app.addHook('onResponse', (_request, reply, done) => {
      const length = Number(reply.getHeader('content-length'));
      if (Number.isFinite(length) && length > 0) this.playBytes.inc(length);
      done();
    });
  }

  /** An answer body the play origin kept (decision 0037): from memory (`kept`), or made and kept now. */
  playBody(kept: boolean, encoding: 'br' | 'gzip' | 'identity'): void {
    this.playBodies.inc({ kept: String(kept), encoding });
  }

  playLookup(kept: boolean): void {
    this.playLookups.inc({ kept: String(kept) });
  }

  readonly generation: GenerationMetrics = {
    queued: (kind) => this.jobsQueued.inc({ kind }),
    sliceStarted: (gameId, kind) => {
      this.jobsRunning.inc({ kind });
      const key = `${kind}:${gameId}`;
      if (!this.jobStarts.has(key)) this.jobStarts.set(key, performance.now());
    },
    sliceEnded: (kind) => this.jobsRunning.dec({ kind }),
    ended: (gameId, kind, outcome) => {
      const key = `${kind}:${gameId}`;
      const started = this.jobStarts.get(key);
      this.jobStarts.delete(key);
      if (outcome === 'failed') this.jobsFailed.inc({ kind });
      if (started !== undefined)
        this.jobDuration.observe({ kind, outcome }, (performance.now() - started) / 1000);
    },
    dropped: (gameId, kind) => void this.jobStarts.delete(`${kind}:${gameId}`),
  };
}

/** Whether `given` is the configured token, in constant time (both hashed first: equal lengths). */
export function tokenMatches(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
