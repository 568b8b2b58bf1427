import { parseId } from '@reskin/contract';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { fileIdParam } from '../../inbox/lib/event-text';

/**
 * The file a link names (`?fileId=`, from the inbox: a note on that file), or null. Once `ready` (its card is on the
 * page), the card (`[data-file-id]`) is scrolled into view.
 */
export function useFocusedFile(ready: boolean): number | null {
  const [params] = useSearchParams();
  const fileId = parseId(params.get(fileIdParam)) ?? null;
  useEffect(() => {
    if (!ready || fileId === null) return;
    document.querySelector(`[data-file-id="${fileId}"]`)?.scrollIntoView({ block: 'center' });
  }, [ready, fileId]);
  return fileId;
}
