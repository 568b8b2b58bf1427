import { servicesUpdateResponseSchema } from '@reskin/contract';
import type { z } from 'zod';
import { apiParse } from '../lib/api-client';
import { useApiMutation } from './mutation';

export type ServicesUpdateSummary = z.infer<typeof servicesUpdateResponseSchema>;

/** GET /admin/update: re-generates changed Ready games and removes stored files no record points to. */
export const updateServices = () => apiParse(servicesUpdateResponseSchema, '/admin/update');

export const useUpdateServices = () => useApiMutation(['admin', 'update'], updateServices);
