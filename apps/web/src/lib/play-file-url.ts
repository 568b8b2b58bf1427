/** A game path with each segment percent-encoded (the play origin decodes them). */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The URL of one file in a play view. `rootPath` is the user view's root and `userView` (orjFile) that view's
 * index URL, so their difference is the encoded index path every view URL ends with; stripping it from
 * `viewUrl` gives that view's root. `version` (an updatedAt) changes the URL when the file changes; the
 * play origin ignores the query string.
 */
export function fileUrl(
  paths: { rootPath: string; orjFile: string },
  viewUrl: string,
  path: string,
  version?: string,
): string {
  const indexLength = paths.orjFile.length - paths.rootPath.length;
  const root = viewUrl.slice(0, viewUrl.length - indexLength);
  const query = version === undefined ? '' : `?t=${encodeURIComponent(version)}`;
  return `${root}${encodePath(path.replace(/^\/+/, ''))}${query}`;
}
