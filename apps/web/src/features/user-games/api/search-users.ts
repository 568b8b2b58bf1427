import { userSearchFilter } from '@reskin/contract';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import type { Suggestion } from '../lib/suggestion';

const userHitSchema = z.object({ id: z.number().int(), username: z.string() });

/** POST /user/list with the typeahead's user search (SPEC §5): 10 usernames containing `text`. */
export async function searchUsers(text: string, signal?: AbortSignal): Promise<Suggestion[]> {
  const hits = z
    .array(userHitSchema)
    .parse(await apiRequest('/user/list', { method: 'POST', body: userSearchFilter(text), signal }));
  return hits.map((hit) => ({ id: hit.id, label: hit.username }));
}
