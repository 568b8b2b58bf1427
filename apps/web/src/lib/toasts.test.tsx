import { toastSettings } from '@reskin/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { ToastHost, notifyFailure, notifySuccess } from './toasts';

/** The toast element (react-toastify's `.Toastify__toast`) that shows `text`. */
function toastWith(text: string): HTMLElement {
  const element = screen.getByText(text).closest<HTMLElement>('.Toastify__toast');
  if (!element) throw new Error(`no toast shows ${text}`);
  return element;
}

/** react-toastify marks a closing toast with data-in="false" while its exit animation runs. */
const isOpen = (element: HTMLElement) => element.dataset.in === 'true';

beforeEach(() => {
  // Only the toast timers: React's own scheduling keeps running.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  render(<ToastHost />);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('notifyFailure', () => {
  it('shows the product message in the danger style', async () => {
    await act(async () =>
      notifyFailure('email already exists', new ApiError(409, 'USERNAME_EXISTS', 'username already exists', {})),
    );
    expect(toastWith('email already exists').className).toContain('Toastify__toast--error');
  });

  it('does not repeat what the client error toast for the same failure already said', async () => {
    await act(async () =>
      notifyFailure('email already exists', new ApiError(409, 'EMAIL_EXISTS', 'Email already exists', {})),
    );
    expect(screen.queryByText('email already exists')).toBeNull();
  });
});

describe('toast lifetime (SPEC §9)', () => {
  it(`closes ${toastSettings.displayMs} ms after it shows`, async () => {
    await act(async () => notifySuccess('saved'));
    const shown = toastWith('saved');
    await act(async () => vi.advanceTimersByTime(toastSettings.displayMs - 1));
    expect(isOpen(shown)).toBe(true);
    await act(async () => vi.advanceTimersByTime(1));
    expect(isOpen(shown)).toBe(false);
  });

  it(`stays while hovered and closes ${toastSettings.extendedAfterHoverMs} ms after the hover ends`, async () => {
    await act(async () => notifySuccess('saved'));
    const shown = toastWith('saved');
    fireEvent.mouseEnter(shown);
    await act(async () => vi.advanceTimersByTime(toastSettings.displayMs * 3));
    expect(isOpen(shown)).toBe(true);
    fireEvent.mouseLeave(shown);
    await act(async () => vi.advanceTimersByTime(toastSettings.extendedAfterHoverMs - 1));
    expect(isOpen(shown)).toBe(true);
    await act(async () => vi.advanceTimersByTime(1));
    expect(isOpen(shown)).toBe(false);
  });

  it('keeps its own time when another toast closes meanwhile (ERR-2)', async () => {
    const gap = 1000;
    await act(async () => notifySuccess('older'));
    await act(async () => vi.advanceTimersByTime(gap));
    await act(async () => notifySuccess('newer'));
    const newer = toastWith('newer');
    // The older toast closes and, once its exit animation has ended, leaves the page.
    await act(async () => vi.advanceTimersByTime(toastSettings.displayMs - gap));
    const older = toastWith('older');
    expect(isOpen(older)).toBe(false);
    await act(async () => fireEvent.animationEnd(older));
    expect(screen.queryByText('older')).toBeNull();
    await act(async () => vi.advanceTimersByTime(gap - 1));
    expect(isOpen(newer)).toBe(true);
    await act(async () => vi.advanceTimersByTime(1));
    expect(isOpen(newer)).toBe(false);
  });
});
