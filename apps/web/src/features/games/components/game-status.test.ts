import { describe, expect, it } from 'vitest';
import { GameStatus } from '@reskin/contract';
import { statusText } from './game-status';

describe('the status column of the games list', () => {
  it("shows a generation's progress while a game is Generating (issue 14), the word alone until it is counted", () => {
    expect(statusText({ gameStatusTypeId: GameStatus.Generating, generationDone: 12, generationTotal: 200 })).toBe('Generating 12/200');
    expect(statusText({ gameStatusTypeId: GameStatus.Generating, generationDone: 0, generationTotal: null })).toBe('Generating');
  });

  it('shows the reason of a failed generation, and the word alone otherwise', () => {
    expect(statusText({ gameStatusTypeId: GameStatus.Failed, statusReason: 'img/a.png: unsupported image format' })).toBe(
      'Failed: img/a.png: unsupported image format',
    );
    expect(statusText({ gameStatusTypeId: GameStatus.Ready, generationDone: 5, generationTotal: 5 })).toBe('Ready');
  });
});
