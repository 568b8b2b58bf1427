import { afterEach, describe, expect, it, vi } from 'vitest';
import { keptFor } from './kept-answers';

describe('keptFor: answers kept for a number of milliseconds, at most so many', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps nothing for 0 ms', () => {
    expect(keptFor(0, 10)).toBeUndefined();
  });

  it('keeps an answer for the time, on the clock of Date alone', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = keptFor<string, boolean>(2000, 10)!;
    answers.set('a', false);
    vi.advanceTimersByTime(2000);
    expect(answers.get('a')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(answers.get('a')).toBeUndefined();
  });

  it('keeps at most so many, the least recently used going first', () => {
    const answers = keptFor<number, number>(60_000, 3)!;
    for (const n of [1, 2, 3]) answers.set(n, n);
    answers.get(1);
    answers.set(4, 4);
    expect([...answers.keys()].sort()).toEqual([1, 3, 4]);
  });
});
