import { parseId } from '@reskin/contract';
import { useSearchParams } from 'react-router';
import { fileIdParam } from '../../inbox/lib/event-text';

/**
 * The file a link names (`?fileId=`, from the inbox: a note on that file), or null. The list showing it scrolls
 * to it (VirtualGrid's `scrollToKey`, decision 0041: its card may not be in the page until then) and opens its notes.
 */
export function useFocusedFile(): number | null {
  const [params] = useSearchParams();
  return parseId(params.get(fileIdParam)) ?? null;
}
