import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlayFrame } from './play-frame';
import { createThrottle, playFrameSize } from './play-frame-size';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('PlayFrame', () => {
  it('allows cross-origin-isolated for an isolated game in an isolated document, and only then', () => {
    Object.defineProperty(window, 'crossOriginIsolated', { value: true, configurable: true });
    try {
      render(
        <PlayFrame
          src="http://play.test/p/t/index.html"
          gameWidth={640}
          gameHeight={480}
          title="Threads"
          isolated
        />,
      );
      expect(screen.getByTitle('Threads').getAttribute('allow')).toBe(
        'autoplay; fullscreen; gamepad; cross-origin-isolated',
      );
    } finally {
      Object.defineProperty(window, 'crossOriginIsolated', { value: false, configurable: true });
    }
  });

  it('is game width + 50 by height + 50, sandboxed as DESIGN.md says', () => {
    render(<PlayFrame src="http://play.test/p/t/index.html" gameWidth={640} gameHeight={480} title="Game" />);
    const frame = screen.getByTitle('Game');
    expect(frame.getAttribute('width')).toBe('690');
    expect(frame.getAttribute('height')).toBe('530');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-pointer-lock');
    expect(frame.getAttribute('allow')).toBe('autoplay; fullscreen; gamepad');
  });

  it("tells the page once the frame's document has loaded (the workbench's Files reads wait for it)", () => {
    const loaded = vi.fn();
    render(<PlayFrame src="about:blank" gameWidth={300} gameHeight={400} title="Game" onLoad={loaded} />);
    expect(loaded).not.toHaveBeenCalled();
    fireEvent.load(screen.getByTitle('Game'));
    expect(loaded).toHaveBeenCalledTimes(1);
  });

  it('resizes with the arrow keys on the handle', () => {
    render(<PlayFrame src="about:blank" gameWidth={300} gameHeight={400} title="Game" />);
    const handle = screen.getByRole('button', { name: /resize/i });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    fireEvent.keyDown(handle, { key: 'ArrowUp' });
    const frame = screen.getByTitle('Game');
    expect(frame.getAttribute('width')).toBe('360');
    expect(frame.getAttribute('height')).toBe('440');
  });

  it('starts again from the new size when the game changes', () => {
    const { rerender } = render(
      <PlayFrame src="about:blank" gameWidth={300} gameHeight={400} title="Game" />,
    );
    fireEvent.keyDown(screen.getByRole('button', { name: /resize/i }), { key: 'ArrowDown' });
    rerender(<PlayFrame src="about:blank" gameWidth={500} gameHeight={600} title="Game" />);
    expect(screen.getByTitle('Game').getAttribute('width')).toBe(String(playFrameSize(500, 600).width));
    expect(screen.getByTitle('Game').getAttribute('height')).toBe('650');
  });
});

describe('createThrottle', () => {
  it('applies at most once per interval, then the last value of the burst', () => {
    vi.useFakeTimers();
    const applied: number[] = [];
    const throttle = createThrottle<number>(
      (value) => applied.push(value),
      50,
      () => Date.now(),
    );
    throttle.push(1);
    throttle.push(2);
    throttle.push(3);
    expect(applied).toEqual([1]);
    vi.advanceTimersByTime(49);
    expect(applied).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(applied).toEqual([1, 3]);
    throttle.push(4);
    throttle.flush();
    expect(applied).toEqual([1, 3, 4]);
  });
});
