import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A mutation named by its key (the query client logs a failure with it) that, once settled, reloads the
 * queries under each key `invalidates` names for its input.
 */
export function useApiMutation<TInput, TResult>(
  mutationKey: QueryKey,
  mutationFn: (input: TInput) => Promise<TResult>,
  invalidates: (input: TInput) => QueryKey[] = () => [],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey,
    mutationFn,
    onSettled: (_result, _error, input) =>
      Promise.all(invalidates(input).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
