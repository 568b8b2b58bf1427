import { parseId } from '@reskin/contract';
import { useSearchParams } from 'react-router';

/** The query key naming the file card a link opens at (workbench and review screen), as `?fileId=`. */
export const fileIdParam = 'fileId';

/**
 * The file a link names (`?fileId=`, from the inbox: a note on that file), or null. The list showing it scrolls
 * to it (VirtualGrid's `scrollToKey`, decision 0041: its card may not be in the page until then) and opens its notes.
 */
export function useFocusedFile(): number | null {
  const [params] = useSearchParams();
  return parseId(params.get(fileIdParam)) ?? null;
}
