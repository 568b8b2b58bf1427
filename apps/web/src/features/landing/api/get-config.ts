import { publicConfigSchema, type PublicConfig } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /config: the product name and the play origin. */
export async function getConfig(): Promise<PublicConfig> {
  return publicConfigSchema.parse(await apiRequest('/config'));
}

export function usePublicConfig() {
  return useQuery({ queryKey: ['config'], queryFn: getConfig, staleTime: Infinity });
}
