import { myGamesSchema, type MyGame } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /user-games/my-games: the caller's active assignments, each with its game and card image URL. */
export async function listMyGames(): Promise<MyGame[]> {
  return myGamesSchema.parse(await apiRequest('/user-games/my-games'));
}

export function useMyGames() {
  return useQuery({ queryKey: ['my-games', 'list'], queryFn: listMyGames });
}

/** One assignment of the caller, found in My Games by its id (a reload or pasted link has only the id). */
export function useMyGame(userGameId: number | null) {
  const myGames = useMyGames();
  const userGame = myGames.data?.find((item) => item.id === userGameId);
  return { ...myGames, userGame };
}
