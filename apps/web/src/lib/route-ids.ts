import { useSearchParams } from 'react-router';

function positiveInt(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

/** The ids these screens keep in the query string (DESIGN.md "Client"), so reload and pasted links work. */
export function useIds() {
  const [params] = useSearchParams();
  return {
    userGameId: positiveInt(params.get('userGameId')),
    versionId: positiveInt(params.get('versionId')),
    gameId: positiveInt(params.get('gameId')),
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
