import { parseId } from '@reskin/contract';
import { useSearchParams } from 'react-router';

/**
 * The game a screen is about, from `?gameId=` (DESIGN.md "Client": state travels in the query string so a
 * reload or a pasted link opens the same screen). null when missing or not an id by the contract's parseId (the
 * server's rule for path ids: digits only, no sign or leading zero, at most 2147483647).
 */
export function useGameIdParam(): number | null {
  const [params] = useSearchParams();
  return parseId(params.get('gameId')) ?? null;
}
