import { useSearchParams } from 'react-router';

/**
 * The game a screen is about, from `?gameId=` (DESIGN.md "Client": state travels in the query string so a
 * reload or a pasted link opens the same screen). null when missing or not a positive whole number.
 */
export function useGameIdParam(): number | null {
  const [params] = useSearchParams();
  const raw = params.get('gameId');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
