import { useMutation } from '@tanstack/react-query';
import { servicesUpdateResponseSchema } from '@reskin/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type ServicesUpdateSummary = z.infer<typeof servicesUpdateResponseSchema>;

/** GET /admin/update: re-generates changed Ready games and removes stored files no record points to. */
export async function updateServices(): Promise<ServicesUpdateSummary> {
  return servicesUpdateResponseSchema.parse(await apiRequest('/admin/update'));
}

/** The toast text: the spec's message, then what the update did. */
export function describeServicesUpdate(summary: ServicesUpdateSummary, servicesUpdated: string): string {
  const games = summary.regeneratedGameIds.length;
  const files = summary.removedStoredFiles;
  return `${servicesUpdated}: ${games} game${games === 1 ? '' : 's'} re-generated, ${files} unused file${files === 1 ? '' : 's'} removed.`;
}

export function useUpdateServices() {
  return useMutation({ mutationFn: updateServices });
}
