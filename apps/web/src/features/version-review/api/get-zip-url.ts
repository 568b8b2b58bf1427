import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** GET /game-versions/{id}/zip-url: the files.zip URL with a 15-minute ticket, for a new window. */
export async function getZipUrl(versionId: number): Promise<string> {
  return z.object({ url: z.string() }).parse(await apiRequest(`/game-versions/${versionId}/zip-url`)).url;
}
