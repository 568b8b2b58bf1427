import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import {
  commonTopFolder,
  declaredZipRefusal,
  errorCodes,
  isSkippedUploadPath,
  limits,
  uploadMessages,
  uploadPaths,
  type ErrorDetail,
} from '@reskin/contract';
import { AppError, unprocessable, withDetail } from '../../lib/errors';
import { lazyPackage } from '../../lib/lazy-package';
import { InvalidPathError, normaliseGamePath } from '../../lib/game-paths';
import { fileTooLarge } from '../../lib/multipart';
import { storageFault } from '../../storage/storage-faults';
import { filesAtOnce, uploadTooManyFiles, type GameUploads, type IncomingFile } from './game-uploads.service';

const inflate = promisify(inflateRaw);

// A game uploaded as one .zip (POST /game/upload-zip/{gameId}). The archive has already been written to a
// temporary file: a zip's table of contents (the central directory) is at its end, so reading it from the
// request stream would mean trusting the local headers, which may lie or be missing (data descriptors). With
// the whole file at hand, yauzl reads the central directory first, and every check below runs on all the
// entries before a single byte is inflated.

const yauzl = lazyPackage<typeof import('yauzl')>('yauzl');

/** 422: the upload is not a zip yauzl can read, with its reason. */
export function invalidZip(reason: string): AppError {
  const message = `The file is not a readable .zip: ${reason.replace(/\.?$/, '.')}`;
  return withDetail(422, errorCodes.invalidZip, message, '/file', 'invalid_zip');
}

/** 413: a zip that unpacks to too much (a zip bomb, or simply too big a game). */
export function zipBomb(message: string, path = '/file'): AppError {
  return withDetail(413, errorCodes.zipBomb, message, path, 'zip_bomb');
}

/** Opens a zip file for reading its entries one by one (entries read later, by openReadStream). */
export async function openZip(path: string): Promise<ZipFile> {
  try {
    // decodeStrings: false: yauzl would refuse the whole zip at the first `..` or absolute name with a bare
    // Error; the names are checked below by the game path rules instead, each refusal naming its entry.
    return await yauzl().openPromise(path, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw invalidZip((error as Error).message);
  }
}

export interface ZipGameFile {
  entry: Entry;
  /** The name in the zip, decoded (UTF-8 flag or CP437, backslashes taken as folder separators). */
  name: string;
}

/**
 * Every entry of the zip, from its central directory (nothing is inflated): at most `maxFiles` (a game upload's
 * 1000, a batch's game file count), else `tooMany` is thrown.
 */
export async function readEntries(
  zip: ZipFile,
  maxFiles: number = limits.adminUploadFiles,
  tooMany: () => AppError = uploadTooManyFiles,
): Promise<ZipGameFile[]> {
  const files: ZipGameFile[] = [];
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      zip.removeAllListeners('entry');
      reject(error instanceof AppError ? error : invalidZip(error.message));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: Entry) => {
      const raw = entry.fileName as unknown as Buffer;
      const name = yauzl().getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
      if (!isSkippedUploadPath(name)) {
        // Counted as they come, so a zip of a million entries is refused after 1001, not after reading them all.
        if (files.length >= maxFiles) return fail(tooMany());
        files.push({ entry, name });
      }
      zip.readEntry();
    });
    zip.readEntry();
  });
  return files;
}

/**
 * Refuses the zip, before anything is inflated, for what its central directory already says. The size checks are
 * the contract's (declaredZipRefusal), as are the entry path rules above (isSkippedUploadPath, uploadPaths; decision 0052): the
 * upload screen applies the same ones before it sends a zip, or while it unpacks one itself (decision 0039).
 */
export function checkDeclared(files: (ZipGameFile & { path: string })[], maxFileSizeBytes: number): void {
  const details: ErrorDetail[] = [];
  for (const { entry, name } of files) {
    let path: string;
    try {
      path = normaliseGamePath(name);
    } catch (error) {
      if (!(error instanceof InvalidPathError)) throw error;
      details.push({ path: '/fullPath', code: 'invalid_path', message: `${name}: ${error.message}` });
      continue;
    }
    if (entry.isEncrypted())
      details.push({
        path: `/files/${path}`,
        code: 'invalid_zip',
        message: uploadMessages.zipEntryEncrypted(path),
      });
  }
  if (details.length > 0) throw unprocessable(details[0]!.message, details);

  const refusal = declaredZipRefusal(
    files.map(({ entry, path }) => ({
      path,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
    })),
    maxFileSizeBytes,
  );
  if (refusal?.code === errorCodes.fileTooLarge)
    throw fileTooLarge(refusal.entry ?? undefined, maxFileSizeBytes);
  if (refusal) throw zipBomb(refusal.message, refusal.entry === null ? '/file' : `/files/${refusal.entry}`);
}

/**
 * The game files of an opened zip, for GameUploads.upload: each entry's path (without the shared top folder,
 * unless the game has a top folder of that name: `topFolderInGame`, decision 0052) and its inflated content. Before the first is handed out, every entry is checked on its declared sizes and
 * names (the path rules of a folder upload, the 1000-file and per-file limits, the total and ratio limits of
 * `limits.zipUpload`). Each entry is then read whole from `data` (the zip file opened once more) and inflated in
 * one call (entryBytes), whose output may not pass the declared size, so a zip that lies about its sizes is refused
 * too (422). Any refusal is an AppError thrown into the upload, which then stores nothing.
 */
export async function* zipGameFiles(
  zip: ZipFile,
  data: FileHandle,
  maxFileSizeBytes: number,
  topFolderInGame: (folder: string) => Promise<boolean> = async () => false,
): AsyncGenerator<IncomingFile> {
  const entries = await readEntries(zip);
  const names = entries.map((file) => file.name);
  const top = commonTopFolder(names);
  const paths = uploadPaths(names, top !== '' && (await topFolderInGame(top.slice(0, -1))));
  const files = entries.map((file, index) => ({ ...file, path: paths[index]! }));
  checkDeclared(files, maxFileSizeBytes);

  for (const { entry, path } of files) yield { path, content: await entryBytes(zip, data, entry, path) };
}

/** Output buffers of at most this size while inflating: one for most entries, a few for the largest. */
const inflateChunkBytes = 8 * 1024 * 1024;

/**
 * An entry's content, read in one go from the zip file (`data`) and inflated in one call of zlib (decision 0061):
 * yauzl's entry streams read 16 KB at a time, one read after another for the whole zip, which made a small file's
 * reads and their thread hand-overs most of its cost. The output may not pass the declared size and must reach it,
 * as yauzl's validateEntrySizes checks; stored (0) and deflated (8) entries, as yauzl reads. A broken, cut-short or
 * lying entry is a 422. The declared sizes were checked before (checkDeclared), so the bytes held are bounded by the
 * per-file limit.
 */
export async function entryBytes(
  zip: ZipFile,
  data: FileHandle,
  entry: Entry,
  path: string,
): Promise<Buffer> {
  const declared = entry.uncompressedSize;
  try {
    // The packed bytes are held too: no more than deflate can make of the declared size (zlib's deflateBound).
    if (entry.compressedSize > declared + (declared >> 10) + 1024)
      throw new Error(`it is packed in more bytes than its ${declared} bytes need`);
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
    const packed = Buffer.allocUnsafe(entry.compressedSize);
    const { bytesRead } = await data.read(packed, 0, packed.length, fileDataStart);
    if (bytesRead !== packed.length) throw new Error('the zip is cut short');
    if (entry.compressionMethod === 0) return packed;
    if (entry.compressionMethod !== 8)
      throw new Error(`unsupported compression method: ${entry.compressionMethod}`);
    const content = await inflate(packed, {
      // One byte more than declared is enough to tell a lie: zlib stops there.
      maxOutputLength: declared + 1,
      chunkSize: Math.min(Math.max(declared + 1, 64), inflateChunkBytes),
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ERR_BUFFER_TOO_LARGE') return undefined;
      throw error;
    });
    if (content === undefined || content.length > declared)
      throw new Error(`it unpacks to more than the ${declared} bytes the zip declares`);
    if (content.length < declared)
      throw new Error(`it unpacks to ${content.length} bytes, not the ${declared} the zip declares`);
    return content;
  } catch (error) {
    throw invalidZip(`${path}: ${(error as Error).message}`);
  }
}

/**
 * A game folder uploaded as one .zip (POST /game/upload-zip/{gameId}): the zip is written to a temporary file of
 * this app server (os.tmpdir(), removed when the request ends; a crash leaves it to the system's temp
 * cleaning), opened, and its entries go through GameUploads.upload with every rule of a folder upload, all or
 * nothing. Refused (507) while the temporary folder or DATA_DIR is under its free-space threshold; a temporary
 * folder that fills up or fails while the zip is written answers 507 or 503 too.
 */
export async function uploadGameZip(
  uploads: GameUploads,
  gameId: number,
  zip: Readable,
  maxFileSizeBytes: number,
) {
  await uploads.assertRoom('zip');
  const dir = await mkdtemp(join(tmpdir(), 'reskin-zip-')).catch((error: unknown) => {
    throw storageFault(error, 'temp');
  });
  try {
    const file = join(dir, 'upload.zip');
    let sourceError: unknown;
    zip.once('error', (error) => (sourceError = error));
    await pipeline(zip, createWriteStream(file)).catch((error: unknown) => {
      // The upload's own failure (cut short, over the limit) is the request's; the folder's is the server's.
      throw error === sourceError ? error : storageFault(error, 'temp');
    });
    const archive = await openZip(file);
    const data = await open(file, 'r');
    try {
      return await uploads.upload(
        gameId,
        zipGameFiles(archive, data, maxFileSizeBytes, (folder) => uploads.hasTopFolder(gameId, folder)),
        filesAtOnce,
      );
    } finally {
      archive.close();
      await data.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
