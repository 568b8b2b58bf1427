import { errorCodes } from './error-codes';
import { limits } from './limits';

// The rules of a game upload that the server and the web app both apply (decision 0039): the words of
// the size refusals, and how a zip's entries become game paths and are checked on their declared sizes. The
// server applies them to every request; the web app applies them before it sends anything, so a zip the server
// would refuse is refused in the browser with the same words, and a zip unpacked in the browser gives the same
// paths the zip route would. Plain functions, no schema library: the upload screen loads them.

/** A byte limit in words: '2 GB', '50 MB', '100 KB', '1500 bytes'. */
export function formatByteLimit(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GB`;
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/**
 * The messages of upload refusals (413 FILE_TOO_LARGE, TOO_MANY_FILES, ZIP_BOMB, 422 INVALID_ZIP, and the 422 of an
 * upload without a file).
 */
export const uploadMessages = {
  /** A replacement upload (one file, a frame, a batch, a fit preview) without a file part: error.message. */
  noFileSent: 'No file was sent.',
  /** A game's or helper files upload (files or a .zip) without a file part: error.message. */
  noFileInUpload: 'The upload holds no file.',
  /** What the detail of such a refusal asks for, by what the route takes. */
  chooseFile: 'Choose a file.',
  chooseFiles: 'Choose at least one file.',
  chooseFilesOrZip: 'Choose files or a .zip.',
  chooseZip: 'Choose a .zip file.',
  /** An uploaded file of 0 bytes (a replacement, a frame, a batch row). */
  emptyFile: 'The file is empty (0 bytes).',
  /** A replacement for a game file that is neither an image nor a sound (a single upload, a batch row). */
  notReplaceable: 'Only images and sounds can be replaced.',
  fileTooLarge: (name: string | undefined, maxFileSizeBytes: number) =>
    `${name || 'A file'} is larger than the ${formatByteLimit(maxFileSizeBytes)} limit per file.`,
  uploadTooLarge: (files: number, maxFileSizeBytes: number) =>
    `The upload is larger than ${files} files of ${formatByteLimit(maxFileSizeBytes)} each.`,
  tooManyFiles: `At most ${limits.adminUploadFiles} files can be uploaded at once.`,
  zipEntryRatio: (path: string) =>
    `${path} unpacks to more than ${limits.zipUpload.maxCompressionRatio} times its packed size; the zip is refused as a zip bomb.`,
  zipUnpackedTotal: `The zip unpacks to more than ${formatByteLimit(limits.zipUpload.maxUnpackedBytes)}.`,
  zipEntryEncrypted: (path: string) => `${path} is encrypted.`,
  /** The files an upload skipped as no game files (isSkippedUploadPath, decision 0052). */
  skippedFiles: (count: number) =>
    `${count} ${count === 1 ? 'file was' : 'files were'} skipped: dotfiles (such as .DS_Store or .gitignore), files in dot-folders (such as .git) and system files (__MACOSX, Thumbs.db) are not game files.`,
} as const;

/** Files the operating systems leave in folders, which no game loads (compared ignoring case). */
const systemJunkNames = new Set(['thumbs.db', 'desktop.ini']);

/**
 * Whether an uploaded name (a folder's file, a zip's entry) is no game file, so an upload skips it (decision 0052):
 * folder entries, dotfiles and everything under a dot-folder (.DS_Store, .gitignore, .git/, .idea/), Finder's
 * __MACOSX/ and Windows' Thumbs.db and desktop.ini. `..` is no dotfile: the path rules refuse it.
 */
export function isSkippedUploadPath(name: string): boolean {
  if (name.endsWith('/')) return true;
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  const last = segments.at(-1);
  if (last === undefined) return true;
  return (
    segments.some((segment) => (segment.startsWith('.') && segment !== '..') || segment === '__MACOSX') ||
    systemJunkNames.has(last.toLowerCase())
  );
}

/** The upload's names split into those kept and how many were skipped (isSkippedUploadPath), in their order. */
export function keptUploadNames<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
): { kept: T[]; skipped: number } {
  const kept = items.filter((item) => !isSkippedUploadPath(nameOf(item)));
  return { kept, skipped: items.length - kept.length };
}

/**
 * The one top folder every name shares (`mygame/` of `mygame/index.html`, `mygame/js/app.js`), or '' when the
 * names do not all sit in one folder.
 */
export function commonTopFolder(names: readonly string[]): string {
  if (names.length === 0) return '';
  const first = names[0]!.split('/').filter(Boolean);
  if (first.length < 2) return '';
  const top = `${first[0]}/`;
  return names.every((name) => name.replace(/^\/+/, '').startsWith(top)) ? top : '';
}

/**
 * The game paths of an upload's kept names (decision 0052: one rule for a chosen or dropped folder and a zip, in the
 * web app and on the server): without a leading '/', and without the top folder they all share, unless the game
 * already has a folder of that name at its top (`topFolderInGame`: then the upload is a part of the game's tree, as a
 * dropped `img/` folder is). The server's path rules (normaliseGamePath) still apply to the result.
 */
export function uploadPaths(names: readonly string[], topFolderInGame: boolean): string[] {
  const top = topFolderInGame ? '' : commonTopFolder(names);
  return names.map((name) => name.replace(/^\/+/, '').slice(top.length));
}

/** What a zip's central directory declares about one kept entry. */
export interface DeclaredZipEntry {
  path: string;
  compressedSize: number;
  uncompressedSize: number;
}

export interface ZipRefusal {
  code: typeof errorCodes.fileTooLarge | typeof errorCodes.zipBomb;
  /** The entry refused, or null when the zip as a whole is (its entries together unpack to too much). */
  entry: string | null;
  message: string;
}

/**
 * Why a zip is refused on its declared sizes, before a byte is inflated, or null: an entry over the per-file limit,
 * an entry of `ratioMinBytes` or more that unpacks to more than `maxCompressionRatio` times its packed size, or
 * entries that unpack to more than `maxUnpackedBytes` together (limits.zipUpload). The first refusal in entry order.
 */
export function declaredZipRefusal(
  entries: readonly DeclaredZipEntry[],
  maxFileSizeBytes: number,
): ZipRefusal | null {
  const { maxUnpackedBytes, maxCompressionRatio, ratioMinBytes } = limits.zipUpload;
  let total = 0;
  for (const { path, compressedSize, uncompressedSize } of entries) {
    if (uncompressedSize > maxFileSizeBytes) {
      return {
        code: errorCodes.fileTooLarge,
        entry: path,
        message: uploadMessages.fileTooLarge(path, maxFileSizeBytes),
      };
    }
    if (
      uncompressedSize >= ratioMinBytes &&
      uncompressedSize / Math.max(compressedSize, 1) > maxCompressionRatio
    ) {
      return { code: errorCodes.zipBomb, entry: path, message: uploadMessages.zipEntryRatio(path) };
    }
    total += uncompressedSize;
    if (total > maxUnpackedBytes)
      return { code: errorCodes.zipBomb, entry: null, message: uploadMessages.zipUnpackedTotal };
  }
  return null;
}
