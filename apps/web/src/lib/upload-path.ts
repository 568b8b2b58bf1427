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
