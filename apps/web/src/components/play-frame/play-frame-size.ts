import { limits } from '@reskin/contract';

export interface FrameSize {
  width: number;
  height: number;
}

/** The smallest a frame can be dragged to. */
export const minFrameSize: FrameSize = { width: 120, height: 90 };

/** The frame starts at game width + 50 by game height + 50 px (SPEC §9). */
export function playFrameSize(gameWidth: number, gameHeight: number): FrameSize {
  return { width: gameWidth + limits.playFrameExtraPx, height: gameHeight + limits.playFrameExtraPx };
}

export function clampFrameSize({ width, height }: FrameSize): FrameSize {
  return {
    width: Math.max(minFrameSize.width, Math.round(width)),
    height: Math.max(minFrameSize.height, Math.round(height)),
  };
}

/**
 * Calls `apply` at most once per `intervalMs` with the latest value, and once more with the last value of a
 * burst (SPEC §9: the resize mouse-move is throttled to 50 ms).
 */
export function createThrottle<T>(
  apply: (value: T) => void,
  intervalMs: number,
  now: () => number = Date.now,
) {
  let last = -Infinity;
  let pending: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    last = now();
    apply(value);
  };

  return {
    push(value: T) {
      pending = { value };
      const wait = last + intervalMs - now();
      if (wait <= 0) {
        clearTimeout(timer);
        flush();
      } else {
        timer ??= setTimeout(flush, wait);
      }
    },
    /** Applies a pending value now (the drag ended). */
    flush() {
      clearTimeout(timer);
      flush();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = null;
    },
  };
}
