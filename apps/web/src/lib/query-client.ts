import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

/**
 * The api client already toasts every failure, so a retry would repeat the toast (and a 401 must not be
 * retried at all); screens reload their data when they mount, not when the window regains focus.
 * Every failed query and mutation is logged here, once, with its key; screens add only product messages
 * (SPEC §8: a load error in admin and account is only logged, next to the client's toast).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => console.error('query failed', query.queryKey, error),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) =>
        console.error('mutation failed', mutation.options.mutationKey, error),
    }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
