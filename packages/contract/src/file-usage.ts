import { z } from 'zod';
import type { Where } from './search';

/**
 * GET /games/{id}/usage (decision 0023): for each file of the game, how often plays (any view, any
 * person) requested it from the play origin, when first, and whether ever within the first seconds of a play.
 * A file no play has loaded yet has 0 loads and no firstSeenAt. Nothing says who played.
 */
export const fileUsageSchema = z.object({
  fileId: z.number().int(),
  path: z.string(),
  loads: z.number().int(),
  firstSeenAt: z.string().nullable(),
  atStart: z.boolean(),
});
export type FileUsage = z.infer<typeof fileUsageSchema>;
export const fileUsageListSchema = z.array(fileUsageSchema);

/** The usage filters of the workbench and the game files screen: one definition of what each one keeps. */
export const fileUsageFilters = [
  { key: 'all', label: 'All files' },
  { key: 'loaded', label: 'Loaded in play' },
  { key: 'atStart', label: 'At start' },
  { key: 'never', label: 'Never loaded yet' },
] as const;
export type FileUsageFilter = (typeof fileUsageFilters)[number]['key'];

/** Whether a file's usage (undefined: not known, as never loaded) passes a usage filter. */
export function passesUsageFilter(
  usage: Pick<FileUsage, 'loads' | 'atStart'> | undefined,
  filter: FileUsageFilter,
): boolean {
  const loads = usage?.loads ?? 0;
  if (filter === 'loaded') return loads > 0;
  if (filter === 'atStart') return usage?.atStart ?? false;
  if (filter === 'never') return loads === 0;
  return true;
}

/** The same filter as a files search condition (POST /games/{id}/files/filter's `loads` and `atStart`); none for all. */
export function usageFilterWhere(filter: FileUsageFilter): Where | undefined {
  if (filter === 'loaded') return { loads: { gt: 0 } };
  if (filter === 'atStart') return { atStart: true };
  if (filter === 'never') return { loads: 0 };
  return undefined;
}

/** What a file's card or row says of its usage: "At start · 12 loads", "Loaded in play · 1 load", "Never loaded yet". */
export function usageLabel(usage: Pick<FileUsage, 'loads' | 'atStart'> | undefined): string {
  const loads = usage?.loads ?? 0;
  if (loads === 0) return 'Never loaded yet';
  const count = `${loads} ${loads === 1 ? 'load' : 'loads'}`;
  return `${usage?.atStart ? 'At start' : 'Loaded in play'} · ${count}`;
}
