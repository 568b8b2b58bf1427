import type { QueryClient } from '@tanstack/react-query';
import { gameQueryKey } from './get-game';
import { gameFilesQueryKey } from './list-game-files';

/** After any change to a game's files: the list, and the game (any change makes it a Draft again). */
export function invalidateGameFiles(queryClient: QueryClient, gameId: number): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: gameFilesQueryKey(gameId) }),
    queryClient.invalidateQueries({ queryKey: gameQueryKey(gameId) }),
  ]).then(() => undefined);
}
