import { limits } from '@reskin/contract';

/** Why a batch is refused before anything is sent, or null when it can go. */
export function batchRefusal(count: number): string | null {
  if (count === 0) return 'Choose at least one file.';
  if (count > limits.adminUploadFiles) {
    return `At most ${limits.adminUploadFiles} files can be uploaded at once; ${count} were chosen.`;
  }
  return null;
}
