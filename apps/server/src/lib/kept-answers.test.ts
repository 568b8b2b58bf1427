import { afterEach, describe, expect, it, vi } from 'vitest';
import { keptFor } from './kept-answers';

describe('keptFor: answers kept for a number of milliseconds, at most so many', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps nothing for 0 ms', () => {
    expect(keptFor(0, 10)).toBeUndefined();
  });

  it('keeps an answer while less than the time has passed since it was asked, on the clock of Date alone', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = keptFor<string, boolean>(2000, 10)!;
    const askedAt = answers.perf.now();
    vi.advanceTimersByTime(5);
    answers.set('asked', false, { start: askedAt });
    answers.set('set', true);
    vi.advanceTimersByTime(1994);
    expect(answers.get('asked')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(answers.get('asked')).toBeUndefined();
    vi.advanceTimersByTime(4);
    expect(answers.get('set')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(answers.get('set')).toBeUndefined();
  });

  it('keeps an answer of 1 ms within its millisecond only', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = keptFor<string, number>(1, 10)!;
    answers.set('a', 1);
    expect(answers.get('a')).toBe(1);
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
