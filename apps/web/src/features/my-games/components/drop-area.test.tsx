import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DropArea, type DropOutcome } from './drop-area';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Chooses files through the area's input, as a drop or the file chooser would hand them over. */
async function choose(label: string, files: File[]) {
  const input = screen.getByLabelText(label, { selector: 'input' });
  await act(async () => {
    fireEvent.change(input, { target: { files } });
    // react-dropzone reads the files asynchronously.
    await vi.advanceTimersByTimeAsync(10);
  });
}

const png = () => new File([new Uint8Array([1, 2, 3])], 'bird.png', { type: 'image/png' });

function renderArea(outcome: DropOutcome, disabledReason?: string) {
  const onFiles = vi.fn(async () => outcome);
  render(
    <DropArea
      label="Replace img/bird.png"
      hint="Drop one image"
      multiple={false}
      disabledReason={disabledReason}
      onFiles={onFiles}
    />,
  );
  return { onFiles, area: screen.getByRole('group', { name: 'Replace img/bird.png' }) };
}

describe('DropArea [WB-11][WB-12]', () => {
  it('shows a success, then resets 5000 ms later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { onFiles, area } = renderArea({ ok: true, message: 'Item uploaded successfully.' });
    await choose('Replace img/bird.png', [png()]);
    expect(onFiles).toHaveBeenCalledOnce();
    expect(area.dataset.state).toBe('success');
    expect(screen.getByRole('status').textContent).toBe('Item uploaded successfully.');
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(area.dataset.state).toBe('success');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(area.dataset.state).toBe('idle');
    expect(screen.getByText('Drop one image')).toBeTruthy();
  });

  it('shows an error with its details, then resets 7000 ms later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { area } = renderArea({
      ok: false,
      message: '0 of 1 files uploaded.',
      details: ['a.png: No matching file is found'],
    });
    await choose('Replace img/bird.png', [png()]);
    expect(area.dataset.state).toBe('error');
    expect(screen.getByRole('alert').textContent).toContain('a.png: No matching file is found');
    await act(() => vi.advanceTimersByTimeAsync(6900));
    expect(area.dataset.state).toBe('error');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(area.dataset.state).toBe('idle');
  });

  it('is disabled with its reason on a locked version, and takes no files', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { onFiles, area } = renderArea({ ok: true, message: 'x' }, 'This version is locked.');
    expect(area.dataset.state).toBe('disabled');
    expect(area.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('This version is locked.')).toBeTruthy();
    await choose('Replace img/bird.png', [png()]);
    expect(onFiles).not.toHaveBeenCalled();
  });
});
