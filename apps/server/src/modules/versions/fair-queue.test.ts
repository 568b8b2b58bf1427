import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFullError } from './fair-queue';

/** A task that ends when the test says so, recording when it starts. */
function gate(log: string[], name: string) {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    work: async () => {
      log.push(name);
      await opened;
    },
    open,
  };
}

describe('FairQueue', () => {
  it("serves waiting owners in turn: user B's one task runs before user A's queue drains", async () => {
    const queue = new FairQueue<string>(1);
    const started: string[] = [];
    const tasks = ['a1', 'a2', 'a3', 'a4'].map((name) => ({ name, ...gate(started, name) }));
    const b = gate(started, 'b1');
    const running = tasks.map((task) => queue.run('A', task.work));
    const bDone = queue.run('B', b.work);
    // a1 runs; a2, a3, a4 and b1 wait. Each end hands the place to the next owner in turn.
    await Promise.resolve();
    expect(started).toEqual(['a1']);
    tasks[0]!.open();
    await running[0];
    tasks[1]!.open();
    await running[1];
    b.open();
    await bDone;
    // b1 ran third, not fifth; its end handed the place back to A.
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const task of tasks.slice(2)) task.open();
    await Promise.all(running);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
    expect(queue.peak).toBe(1);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('runs at most its concurrency at once, and refuses a task beyond its waiting room at once', async () => {
    const queue = new FairQueue<number>(2, 1);
    const started: string[] = [];
    const [one, two, three] = [gate(started, '1'), gate(started, '2'), gate(started, '3')];
    const runs = [queue.run(1, one.work), queue.run(2, two.work), queue.run(3, three.work)];
    await expect(queue.run(4, async () => {})).rejects.toThrow(QueueFullError);
    expect(queue.load).toEqual({ running: 2, waiting: 1 });
    one.open();
    two.open();
    three.open();
    await Promise.all(runs);
    expect(started).toEqual(['1', '2', '3']);
    expect(queue.peak).toBe(2);
  });

  it('frees the place of a task that throws', async () => {
    const queue = new FairQueue<number>(1);
    await expect(queue.run(1, () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await queue.run(1, async () => 'next')).toBe('next');
  });
});
