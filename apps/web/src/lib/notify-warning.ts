import { toast } from 'react-toastify/unstyled';

/** A product message in the warning style (SPEC §8, e.g. 'Game editing cancelled.'). */
export function notifyWarning(message: string): void {
  toast.warning(message);
}
