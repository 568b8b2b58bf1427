import {
  commonTopFolder,
  declaredZipRefusal,
  isSkippedUploadPath,
  limits,
  uploadMessages,
  uploadPaths,
  type DeclaredZipEntry,
} from '@reskin/contract';
import { BlobReader, ZipReader, configure, type Entry, type FileEntry } from '@zip.js/zip.js';
import type { UploadItem } from './upload-item';

// A game folder chosen as one .zip, read in the browser before anything is sent (decision 0039). Only
// the zip's central directory is read (zip.js reads it from the end of the file, in slices; nothing is inflated),
// and its entries are checked with the server's own rules (the contract's uploads.ts): a zip the zip route would
// refuse for its sizes is refused here with the same words and nothing is sent; one the route takes goes to it
// whole; one with more entries than a request may hold, or larger than the route takes, is unpacked here entry by
// entry and sent in batches to the folder route, under the paths the zip route would have given. This module is
// loaded only when a zip is chosen (import()), so zip.js stays out of every other page.

// zip.js only reads the central directory here: no worker script to load (the app's Content-Security-Policy allows
// none from blob: URLs).
configure({ useWebWorkers: false });

export interface ZipGameEntry extends DeclaredZipEntry {
  /** The entry's name in the zip, as the server reads it (backslashes as folder separators). */
  name: string;
  encrypted: boolean;
  entry: FileEntry;
  /** The zip the entry is read from. */
  zip: Blob;
}

export type ZipGamePlan =
  /** Refused before sending: the server would refuse it with this status and message. */
  (
    | { kind: 'refused'; status: number; message: string }
    /** Sent whole to the zip route, which unpacks it (all or nothing). */
    | { kind: 'zip-route' }
    /** Unpacked here and sent in batches to the folder route. */
    | { kind: 'unpack'; items: UploadItem[] }
  ) & {
    /** The entries skipped as no game files (dotfiles, dot-folders, system junk: decision 0052); 0 when unread. */
    skipped?: number;
  };

/** Whether the game has a file under this top folder (decision 0052: an upload's shared top folder is then kept). */
export type TopFolderInGame = (folder: string) => Promise<boolean>;

/** Thrown when the browser cannot read the file as a zip: the server is then left to say why. */
export class UnreadableZipError extends Error {}

/**
 * The kept entries of a zip (folders, dotfiles and system junk skipped, and how many files that was), from its
 * central directory, under the paths the zip route gives them (decision 0052).
 */
export async function readZipEntries(
  file: Blob,
  topFolderInGame: TopFolderInGame = async () => false,
): Promise<{ entries: ZipGameEntry[]; skipped: number }> {
  const reader = new ZipReader(new BlobReader(file));
  let entries: Entry[];
  try {
    entries = await reader.getEntries({
      // As the server's reader (yauzl) decodes names: UTF-8 when the entry says so (or by its Unicode Path extra
      // field), CP437 otherwise, and a backslash is a folder separator. Names are not refused here: the server's
      // path rules answer for each file.
      filenameEncoding: 'cp437',
      filenameValidation: 'tolerant',
      normalizeFilename: (name) => name.replaceAll('\\', '/'),
    });
  } catch (error) {
    throw new UnreadableZipError((error as Error).message);
  }
  const files = entries.filter(
    (entry): entry is FileEntry => !entry.directory && !entry.filename.endsWith('/'),
  );
  const kept = files.filter((entry) => !isSkippedUploadPath(entry.filename));
  const names = kept.map((entry) => entry.filename);
  const top = commonTopFolder(names);
  const paths = uploadPaths(names, top !== '' && (await topFolderInGame(top.slice(0, -1))));
  return {
    skipped: files.length - kept.length,
    entries: kept.map((entry, index) => ({
      name: entry.filename,
      path: paths[index]!,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
      encrypted: entry.encrypted,
      entry,
      zip: file,
    })),
  };
}

/** The local file header: its signature, and where the lengths of the name and extra field that follow it sit. */
const localHeader = { bytes: 30, signature: 0x04034b50, nameLength: 26, extraLength: 28 };
const stored = 0;
const deflated = 8;

/**
 * An entry's bytes, inflated. zip.js has read the entry's place, sizes and method from the central directory; its
 * own per-entry reading costs several milliseconds of stream set-up per entry (about a minute for 1,552 small
 * files in Chromium), so the entry's data is taken here from behind its local header and inflated by the
 * browser's DecompressionStream. More bytes than the central directory declares fail the entry (as the server's
 * reader does), so a zip that lies about its sizes cannot fill the browser's memory past the checked total.
 */
export async function inflateEntry({
  zip,
  entry,
  path,
  compressedSize,
  uncompressedSize,
}: ZipGameEntry): Promise<Blob> {
  const head = new DataView(await zip.slice(entry.offset, entry.offset + localHeader.bytes).arrayBuffer());
  if (head.byteLength < localHeader.bytes || head.getUint32(0, true) !== localHeader.signature) {
    throw new Error(`${path} has no local header where the central directory says.`);
  }
  const start =
    entry.offset +
    localHeader.bytes +
    head.getUint16(localHeader.nameLength, true) +
    head.getUint16(localHeader.extraLength, true);
  const data = zip.slice(start, start + compressedSize);
  if (data.size !== compressedSize) throw new Error(`${path} is cut short.`);
  if (entry.compressionMethod === stored) {
    if (compressedSize !== uncompressedSize) throw new Error(`${path} is stored with two different sizes.`);
    return data;
  }
  if (entry.compressionMethod !== deflated) {
    throw new Error(
      `${path} uses compression method ${entry.compressionMethod}; only stored and deflated entries are read.`,
    );
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  const reader = data.stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > uncompressedSize) {
      await reader.cancel();
      throw new Error(`${path} unpacks to more than the ${uncompressedSize} bytes it declares.`);
    }
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
  if (size !== uncompressedSize)
    throw new Error(`${path} unpacks to ${size} bytes, not the ${uncompressedSize} it declares.`);
  return new Blob(chunks);
}

/**
 * What to do with a zip of `zipBytes` bytes and these entries, by the server's rules: refuse it (an encrypted
 * entry, or the declared sizes), send it to the zip route (within its entry count and size), or unpack it here.
 */
export function planZipGame(
  entries: readonly ZipGameEntry[],
  zipBytes: number,
  maxFileSizeBytes: number,
): ZipGamePlan {
  const encrypted = entries.find((entry) => entry.encrypted);
  if (encrypted)
    return { kind: 'refused', status: 422, message: uploadMessages.zipEntryEncrypted(encrypted.path) };
  const refusal = declaredZipRefusal(entries, maxFileSizeBytes);
  if (refusal) return { kind: 'refused', status: 413, message: refusal.message };
  if (entries.length <= limits.adminUploadFiles && zipBytes <= limits.zipUpload.maxZipBytes)
    return { kind: 'zip-route' };
  return {
    kind: 'unpack',
    items: entries.map((entry) => ({
      fullPath: entry.path,
      size: entry.uncompressedSize,
      read: () => inflateEntry(entry),
    })),
  };
}

/** Reads a chosen zip and plans its upload; a file the browser cannot read as a zip goes to the server as is. */
export async function zipGamePlan(
  file: File,
  maxFileSizeBytes: number,
  topFolderInGame?: TopFolderInGame,
): Promise<ZipGamePlan> {
  try {
    const { entries, skipped } = await readZipEntries(file, topFolderInGame);
    return { ...planZipGame(entries, file.size, maxFileSizeBytes), skipped };
  } catch (error) {
    if (error instanceof UnreadableZipError) return { kind: 'zip-route' };
    throw error;
  }
}
