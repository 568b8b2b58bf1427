import { parseId } from '@reskin/contract';
import { useSearchParams } from 'react-router';

/** An id of the query string by the server's rule for path ids (the contract's parseId), or null. */
function idOf(value: string | null): number | null {
  return parseId(value) ?? null;
}

/**
 * The ids these screens keep in the query string (DESIGN.md "Client"), so reload and pasted links work. Each is
 * read as the server reads a path id: `?gameId=0002` or `?gameId=1e3` is no game, not game 2 or 1000.
 */
export function useIds() {
  const [params] = useSearchParams();
  return {
    userGameId: idOf(params.get('userGameId')),
    versionId: idOf(params.get('versionId')),
    gameId: idOf(params.get('gameId')),
  };
}

export function idsQuery(ids: {
  versionId?: number | null;
  gameId?: number | null;
  userGameId?: number | null;
}): string {
  const params = new URLSearchParams();
  if (ids.versionId) params.set('versionId', String(ids.versionId));
  if (ids.gameId) params.set('gameId', String(ids.gameId));
  if (ids.userGameId) params.set('userGameId', String(ids.userGameId));
  return params.toString();
}
