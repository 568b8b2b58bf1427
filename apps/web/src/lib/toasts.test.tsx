import { toastSettings } from '@reskin/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastHost, notifyError, notifyFailure, notifySuccess } from './toasts';

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

describe('notifyError', () => {
  it('shows one danger toast: the title, the body and the server reason under it', async () => {
    await act(async () =>
      notifyError('Login failed', 'invalid email or password!', 'This account is disabled.'),
    );
    const shown = toastWith('invalid email or password!');
    expect(shown.className).toContain('Toastify__toast--error');
    expect(shown.querySelector('.toast-title')?.textContent).toBe('Login failed');
    expect(shown.querySelector('.toast-text')?.textContent).toBe('invalid email or password!');
    expect(shown.querySelector('.toast-reason')?.textContent).toBe('This account is disabled.');
    expect(document.querySelectorAll('.Toastify__toast')).toHaveLength(1);
  });

  it('shows one toast for identical failures while it is on the page, a new one once it has gone (decision 0052)', async () => {
    await act(async () => {
      notifyError('No connection', 'The server could not be reached.');
      notifyError('No connection', 'The server could not be reached.');
    });
    expect(screen.getAllByText('The server could not be reached.')).toHaveLength(1);
    // Another failure is its own toast.
    await act(async () => notifyError('Not found', 'The server could not be reached.'));
    expect(document.querySelectorAll('.Toastify__toast')).toHaveLength(2);
    // Once the first has closed and left, the same failure shows again.
    await act(async () => vi.advanceTimersByTime(toastSettings.displayMs));
    for (const element of document.querySelectorAll<HTMLElement>('.Toastify__toast'))
      await act(async () => fireEvent.animationEnd(element));
    expect(document.querySelectorAll('.Toastify__toast')).toHaveLength(0);
    await act(async () => notifyError('No connection', 'The server could not be reached.'));
    expect(screen.getAllByText('The server could not be reached.')).toHaveLength(1);
    // One that is closing (its exit animation still running) holds its words no more: the same failure then is a
    // toast of its own (ERR-2: a second failed login right after the first toast's time).
    await act(async () => vi.advanceTimersByTime(toastSettings.displayMs));
    const closing = document.querySelectorAll<HTMLElement>('.Toastify__toast');
    expect([...closing].map(isOpen)).toEqual([false]);
    await act(async () => notifyError('No connection', 'The server could not be reached.'));
    expect(screen.getAllByText('The server could not be reached.')).toHaveLength(2);
    // The newest on top (toastSettings.newestOnTop).
    expect([...document.querySelectorAll<HTMLElement>('.Toastify__toast')].map(isOpen)).toEqual([
      true,
      false,
    ]);
  });

  it('leaves out a reason that says what the body says', async () => {
    await act(async () =>
      notifyError('Login failed', 'invalid email or password!', 'Invalid email or password.'),
    );
    expect(toastWith('invalid email or password!').querySelector('.toast-reason')).toBeNull();
  });
});

describe('notifyFailure', () => {
  it('shows a refusal of the browser in the danger style', async () => {
    await act(async () => notifyFailure('File is not audio'));
    expect(toastWith('File is not audio').className).toContain('Toastify__toast--error');
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
