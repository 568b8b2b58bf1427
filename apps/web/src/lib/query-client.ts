import { QueryClient } from '@tanstack/react-query';

/**
 * The api client already toasts every failure, so a retry would repeat the toast (and a 401 must not be
 * retried at all); screens reload their data when they mount, not when the window regains focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
