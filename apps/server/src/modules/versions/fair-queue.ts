/** The queue has as many waiting as it allows: the caller answers 503 with Retry-After. */
export class QueueFullError extends Error {}

/**
 * Runs at most `concurrency` tasks at once; the others wait, served round-robin by owner (a user): when a task
 * ends, the next task is the first waiting one of the owner whose turn it is, and that owner then goes to the
 * back. One user's long queue cannot hold another user's single task for longer than one task per waiting owner
 * (decision 0045). p-limit and p-queue serve in arrival order only; this is the small part they lack.
 */
export class FairQueue<Owner = number> {
  private running = 0;
  /** Waiting tasks by owner; a Map keeps its keys in insertion order, which is the turn order. */
  private readonly waiting = new Map<Owner, (() => void)[]>();
  private waitingCount = 0;
  /** The most tasks that ran at once (tests and the bench read it). */
  peak = 0;

  constructor(
    readonly concurrency: number,
    /** The most tasks that may wait; one more throws QueueFullError. */
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  /** Tasks running now and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /** Runs `work` for `owner` once a place is free and it is the owner's turn. Throws QueueFullError at once when full. */
  async run<T>(owner: Owner, work: () => Promise<T>): Promise<T> {
    await this.acquire(owner);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(owner: Owner): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      this.peak = Math.max(this.peak, this.running);
      return Promise.resolve();
    }
    if (this.waitingCount >= this.maxWaiting) throw new QueueFullError();
    this.waitingCount++;
    return new Promise((resolve) => {
      const queue = this.waiting.get(owner);
      if (queue) queue.push(resolve);
      else this.waiting.set(owner, [resolve]);
    });
  }

  /** Hands the place that became free to the next owner in turn (it stays taken), else frees it. */
  private release(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [owner, queue] = next.value;
    const resolve = queue.shift()!;
    this.waiting.delete(owner);
    if (queue.length > 0) this.waiting.set(owner, queue);
    this.waitingCount--;
    this.peak = Math.max(this.peak, this.running);
    resolve();
  }
}
