import { publicConfigSchema } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse } from '../lib/api-client';

export const configKeys = { all: ['config'] as const };

/** GET /config: the product name and the play origin. */
export const getConfig = () => apiParse(publicConfigSchema, '/config');

export const usePublicConfig = () =>
  useQuery({ queryKey: configKeys.all, queryFn: getConfig, staleTime: Infinity });
