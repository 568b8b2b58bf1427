import { limits } from '@reskin/contract';

/** react-dropzone (file-selector) adds these to the files it hands over. */
interface FileWithFolderPath extends File {
  readonly path?: string;
  readonly relativePath?: string;
}

/**
 * The path a file is uploaded under (the `fullPath` field): the folder path a folder pick or drop gives
 * ('star-catcher/game/index.html'), else the bare file name. A dropped folder's entries start with '/' and
 * single dropped files with './'; game paths are relative, so those are removed.
 */
export function uploadPathOf(file: File): string {
  const { path, relativePath } = file as FileWithFolderPath;
  const raw = file.webkitRelativePath || relativePath || path || file.name;
  const trimmed = raw.replace(/^(?:\.\/|\/)+/, '');
  return trimmed === '' ? file.name : trimmed;
}

/** Why a batch is refused before anything is sent, or null when it can go. */
export function batchRefusal(count: number): string | null {
  if (count === 0) return 'Choose at least one file.';
  if (count > limits.adminUploadFiles) {
    return `At most ${limits.adminUploadFiles} files can be uploaded at once; ${count} were chosen.`;
  }
  return null;
}
