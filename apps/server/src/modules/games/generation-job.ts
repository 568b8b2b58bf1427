// The words of a generation job that the generation, its queues and the metrics share; a file of its own so that
// none of them imports another for them (decision 0058).

/**
 * What a job does: 'full' is Gen. (the game is Generating while it runs); 'copies' an incremental generation of a
 * Ready game's changed files (decision 0024), which never changes its status.
 */
export type JobKind = 'full' | 'copies';

/** What one run of a job asks: stop starting images after `deadline` (ms since the epoch); may a transient failure be retried? */
export interface GenerationSlice {
  /** Read before each image starts: the queue moves it to now when the job is no longer this server's. */
  deadline: number;
  /** True on a job queue that retries (PostgreSQL): a transient failure is thrown for it; false: it ends the generation Failed. */
  retryable: boolean;
}

/** Runs one slice of a game's generation job (GameGeneration.runSlice). */
export type SliceRunner = (gameId: number, slice: GenerationSlice, kind: JobKind) => Promise<'done' | 'more'>;

/** How a generation job ended here: its game Ready (or its copies made), or Failed. */
export type JobOutcome = 'ready' | 'failed';

/** What GameGeneration reports (the metrics module counts it: decision 0031). */
export interface GenerationMetrics {
  queued(kind: JobKind): void;
  /** A slice of a job starts here (the job's first one here starts its clock). */
  sliceStarted(gameId: number, kind: JobKind): void;
  sliceEnded(kind: JobKind): void;
  /** The job ended here: its game Ready (copies made) or Failed. */
  ended(gameId: number, kind: JobKind, outcome: JobOutcome): void;
  /** The job ended without an outcome of its own (the game was deleted or changed meanwhile). */
  dropped(gameId: number, kind: JobKind): void;
}
