import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { CountedLoads, FileUsageRepository } from '../modules/file-usage/file-usage.repository';

/** Plays whose start this server remembers; the least recently seen go first. */
const maxPlays = 20_000;
/** Files counted between two writes at most; past it a write starts at once. */
const maxPending = 50_000;

/**
 * Which files plays really load (decision 0023), counted on the play origin per game and file, never
 * per person: a load, its time, and whether it came within `startWindowMs` of its play's start. A play starts
 * when its document is asked for under its link (the game's start file, or any request the browser marks as a
 * document or frame: `Sec-Fetch-Dest`); a link this server has not seen start (its start went to another
 * server, or this one restarted) starts with the first request this server sees under it. The link (which
 * names a user) is kept in memory only, as the key of that start time, and is never written.
 *
 * Counts are kept in memory and written every `flushMs` (and on close) as one upsert that adds them, so a
 * request costs a few map operations and no database write; a server that dies loses at most its last
 * `flushMs` of counts.
 */
export class PlayUsage {
  private pending = new Map<string, CountedLoads>();
  private readonly starts = new LRUCache<string, number>({ max: maxPlays });
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: FileUsageRepository,
    private readonly options: { startWindowMs: number; flushMs: number },
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushMs);
    this.timer.unref();
  }

  /**
   * Counts one request of a play for a file. `link` is the play token (one per user, game and view, reused by
   * reloads), or the user's shared link for a file answered there (decision 0037); `document` says the request
   * starts a play, which then starts under `sharedLink` too, so the files /s/ counts for it are at its start.
   */
  record(link: string, gameId: number, fileId: number, document: boolean, sharedLink?: string): void {
    const now = this.now();
    let start = document ? undefined : this.starts.get(link);
    if (start === undefined) {
      start = now;
      this.starts.set(link, now);
    }
    if (document && sharedLink !== undefined) this.starts.set(sharedLink, now);
    const atStart = now - start < this.options.startWindowMs ? 1 : 0;
    const key = `${gameId}:${fileId}`;
    const counted = this.pending.get(key);
    if (counted) {
      counted.loads += 1;
      counted.startLoads += atStart;
    } else {
      this.pending.set(key, {
        gameId,
        fileId,
        loads: 1,
        startLoads: atStart,
        firstSeenAt: new Date(now).toISOString(),
      });
      if (this.pending.size >= maxPending) void this.flush();
    }
  }

  /** Writes what was counted since the last write (one write at a time); a failed write's counts are kept for the next. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.repository.add([...batch.values()]);
      } catch (error) {
        this.log.warn(
          { err: error, files: batch.size },
          'the play usage record could not be written; it is tried again with the next write',
        );
        for (const [key, counted] of batch) {
          const later = this.pending.get(key);
          if (!later) this.pending.set(key, counted);
          else {
            later.loads += counted.loads;
            later.startLoads += counted.startLoads;
            if (counted.firstSeenAt < later.firstSeenAt) later.firstSeenAt = counted.firstSeenAt;
          }
        }
      }
    });
    return this.writing;
  }

  /** Stops the timer and writes the rest (the play origin has stopped taking requests). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
