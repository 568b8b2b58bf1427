import type { PublicConfig } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';

export const configKeys = { all: ['config'] as const };

/**
 * GET /config: the product name and the play origin. The landing page asks it and loads no schema library
 *, so the answer is taken as the server wrote it through the contract's publicConfigSchema.
 */
export const getConfig = async () => (await apiRequest('/config')) as PublicConfig;

export const usePublicConfig = () =>
  useQuery({ queryKey: configKeys.all, queryFn: getConfig, staleTime: Infinity });
