import { describe, expect, it } from 'vitest';
import { GameStatus } from '@reskin/contract';
import { statusText } from './game-status';

describe('the status column of the games list', () => {
  it("shows a generation's progress while a game is Generating, the word alone until it is counted", () => {
    expect(
      statusText({ gameStatusTypeId: GameStatus.Generating, generationDone: 12, generationTotal: 200 }),
    ).toBe('Generating 12/200');
    expect(
      statusText({ gameStatusTypeId: GameStatus.Generating, generationDone: 0, generationTotal: null }),
    ).toBe('Generating');
  });

  it('shows the reason of a failed generation, and the word alone otherwise', () => {
    expect(
      statusText({
        gameStatusTypeId: GameStatus.Failed,
        statusReason: 'img/a.png: unsupported image format',
      }),
    ).toBe('Failed: img/a.png: unsupported image format');
    expect(statusText({ gameStatusTypeId: GameStatus.Ready, generationDone: 5, generationTotal: 5 })).toBe(
      'Ready',
    );
  });

  it('says a Ready game whose changed files are getting their copies is updating them, Ready once they are all made', () => {
    expect(statusText({ gameStatusTypeId: GameStatus.Ready, copiesCurrent: 12, copiesTotal: 40 })).toBe(
      'Updating copies (12 of 40)',
    );
    expect(statusText({ gameStatusTypeId: GameStatus.Ready, copiesCurrent: 40, copiesTotal: 40 })).toBe(
      'Ready',
    );
    expect(statusText({ gameStatusTypeId: GameStatus.Draft, copiesCurrent: 0, copiesTotal: 40 })).toBe(
      'Draft',
    );
  });
});
