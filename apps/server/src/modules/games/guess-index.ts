import { posix } from 'node:path';
import { canBeIndex } from '@reskin/contract';

/**
 * The file to mark as a game's index when it has none after an upload: the shallowest `index.html` (by folder
 * depth, then by path), else the only .html/.htm file; undefined when neither exists or the choice is not
 * clear (several .html files, none named index.html), which is left to the admin.
 */
export function guessIndex(paths: readonly string[]): string | undefined {
  const depth = (path: string) => path.split('/').length;
  const indexes = paths
    .filter((path) => posix.basename(path).toLowerCase() === 'index.html')
    .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  if (indexes.length > 0) return indexes[0];
  const pages = paths.filter(canBeIndex);
  return pages.length === 1 ? pages[0] : undefined;
}
