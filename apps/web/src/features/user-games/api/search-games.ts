import { gameSearchFilter } from '@reskin/contract';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import type { Suggestion } from '../lib/suggestion';

const gameHitSchema = z.object({ id: z.number().int(), name: z.string() });

/** POST /games/filter with the typeahead's game search (SPEC §5): 10 games whose name contains `text`. */
export async function searchGames(text: string, signal?: AbortSignal): Promise<Suggestion[]> {
  const hits = z
    .array(gameHitSchema)
    .parse(await apiRequest('/games/filter', { method: 'POST', body: gameSearchFilter(text), signal }));
  return hits.map((hit) => ({ id: hit.id, label: hit.name }));
}
