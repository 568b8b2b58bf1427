export type SortDirection = 'asc' | 'desc';

/** Rows ordered by their updatedAt (ISO strings compare as times); ties keep their order. */
export function sortByUpdatedAt<T extends { updatedAt: string }>(
  rows: readonly T[],
  direction: SortDirection,
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * (Date.parse(a.updatedAt) - Date.parse(b.updatedAt)));
}
