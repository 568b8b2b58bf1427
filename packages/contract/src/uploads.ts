import { errorCodes } from './error-codes';
import { limits } from './limits';

// The rules of a game upload that the server and the web app both apply (issue 29, decision 0039): the words of
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

/** The messages of upload refusals (413 FILE_TOO_LARGE, TOO_MANY_FILES, ZIP_BOMB, 422 INVALID_ZIP). */
export const uploadMessages = {
  fileTooLarge: (name: string | undefined, maxFileSizeBytes: number) =>
    `${name || 'A file'} is larger than the ${formatByteLimit(maxFileSizeBytes)} limit per file.`,
  uploadTooLarge: (files: number, maxFileSizeBytes: number) =>
    `The upload is larger than ${files} files of ${formatByteLimit(maxFileSizeBytes)} each.`,
  tooManyFiles: `At most ${limits.adminUploadFiles} files can be uploaded at once.`,
  zipEntryRatio: (path: string) =>
    `${path} unpacks to more than ${limits.zipUpload.maxCompressionRatio} times its packed size; the zip is refused as a zip bomb.`,
  zipUnpackedTotal: `The zip unpacks to more than ${formatByteLimit(limits.zipUpload.maxUnpackedBytes)}.`,
  zipEntryEncrypted: (path: string) => `${path} is encrypted.`,
} as const;

/** Entries of a zip that are no game file: folders, and the junk macOS Finder adds to the zips it makes. */
export function isSkippedZipEntry(name: string): boolean {
  if (name.endsWith('/')) return true;
  const segments = name.split('/');
  return segments[0] === '__MACOSX' || segments.at(-1) === '.DS_Store';
}

/**
 * The one top folder every entry shares (`mygame/` of `mygame/index.html`, `mygame/js/app.js`), or '' when the
 * entries do not all sit in one folder.
 */
export function commonTopFolder(names: readonly string[]): string {
  if (names.length === 0) return '';
  const first = names[0]!.split('/').filter(Boolean);
  if (first.length < 2) return '';
  const top = `${first[0]}/`;
  return names.every((name) => name.replace(/^\/+/, '').startsWith(top)) ? top : '';
}

/**
 * The game path of each kept entry name (skipped entries already left out): without a leading '/' and without
 * the top folder all of them share. The server's path rules (normaliseGamePath) still apply to the result.
 */
export function zipEntryPaths(names: readonly string[]): string[] {
  const top = commonTopFolder(names);
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
export function declaredZipRefusal(entries: readonly DeclaredZipEntry[], maxFileSizeBytes: number): ZipRefusal | null {
  const { maxUnpackedBytes, maxCompressionRatio, ratioMinBytes } = limits.zipUpload;
  let total = 0;
  for (const { path, compressedSize, uncompressedSize } of entries) {
    if (uncompressedSize > maxFileSizeBytes) {
      return { code: errorCodes.fileTooLarge, entry: path, message: uploadMessages.fileTooLarge(path, maxFileSizeBytes) };
    }
    if (uncompressedSize >= ratioMinBytes && uncompressedSize / Math.max(compressedSize, 1) > maxCompressionRatio) {
      return { code: errorCodes.zipBomb, entry: path, message: uploadMessages.zipEntryRatio(path) };
    }
    total += uncompressedSize;
    if (total > maxUnpackedBytes) return { code: errorCodes.zipBomb, entry: null, message: uploadMessages.zipUnpackedTotal };
  }
  return null;
}
