import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useConfirm } from './use-confirm';

afterEach(cleanup);

/** A screen with one confirmed action, as the app's screens use the hook. */
function Screen({ onAnswer }: { onAnswer: (confirmed: boolean) => void }) {
  const { confirm, dialog } = useConfirm();
  return (
    <>
      <button type="button" onClick={async () => onAnswer(await confirm('Delete this file?'))}>
        Delete
      </button>
      {dialog}
    </>
  );
}

describe('useConfirm', () => {
  it('asks the question and answers true on Confirm, false on Cancel', async () => {
    const answers: boolean[] = [];
    render(<Screen onAnswer={(confirmed) => answers.push(confirmed)} />);
    expect(screen.queryByText('Delete this file?')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete this file?')).toBeTruthy();
    expect(screen.getByText('Please confirm')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Confirm' })));
    await waitFor(() => expect(answers).toEqual([true]));

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Cancel' })));
    await waitFor(() => expect(answers).toEqual([true, false]));
  });
});
