import { limits } from '@reskin/contract';
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFirstScreenShown, type FirstScreenOptions } from './use-first-screen-shown';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame'] }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  document.body.replaceChildren();
});

function watch(initial: FirstScreenOptions) {
  const onShown = vi.fn();
  const hook = renderHook((options: FirstScreenOptions) => useFirstScreenShown(options, onShown), {
    initialProps: initial,
  });
  return { onShown, rerender: hook.rerender };
}

/** A picture in the page finishing its load (the event does not bubble). */
function pictureLoads() {
  const picture = document.createElement('img');
  document.body.append(picture);
  picture.dispatchEvent(new Event('load'));
}

describe('the first view of a list screen (decision 0063)', () => {
  it('is not shown before its first pages are rendered, whatever happens', () => {
    const { onShown } = watch({ ready: false, pictures: true });
    pictureLoads();
    window.dispatchEvent(new Event('scroll'));
    vi.advanceTimersByTime(limits.filePages.restAtLatestMs * 2);
    expect(onShown).not.toHaveBeenCalled();
  });

  it('with pictures: shown when the first picture loads, once', () => {
    const { onShown, rerender } = watch({ ready: false, pictures: true });
    rerender({ ready: true, pictures: true });
    vi.advanceTimersToNextFrame();
    vi.advanceTimersToNextFrame();
    expect(onShown).not.toHaveBeenCalled();
    pictureLoads();
    pictureLoads();
    expect(onShown).toHaveBeenCalledTimes(1);
  });

  it('without pictures: shown the frame after the first view was painted', () => {
    const { onShown } = watch({ ready: true, pictures: false });
    vi.advanceTimersToNextFrame();
    expect(onShown).not.toHaveBeenCalled();
    vi.advanceTimersToNextFrame();
    expect(onShown).toHaveBeenCalledTimes(1);
  });

  it('shown at once when the person scrolls, and at the latest after restAtLatestMs', () => {
    const scrolled = watch({ ready: true, pictures: true });
    window.dispatchEvent(new Event('wheel'));
    expect(scrolled.onShown).toHaveBeenCalledTimes(1);
    cleanup();

    const waited = watch({ ready: true, pictures: true });
    vi.advanceTimersByTime(limits.filePages.restAtLatestMs - 1);
    expect(waited.onShown).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(waited.onShown).toHaveBeenCalledTimes(1);
  });

  it('shown at once for a link to one file, before anything is rendered', () => {
    const { onShown } = watch({ ready: false, pictures: true, now: true });
    expect(onShown).toHaveBeenCalledTimes(1);
  });
});
