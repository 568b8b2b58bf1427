import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import pMap from 'p-map';
import {
  GameStatus,
  isSkippedUploadPath,
  limits,
  errorCodes,
  uploadMessages,
  validationMessages,
  type ErrorDetail,
  type GameFile,
} from '@reskin/contract';
import { servedAs } from '../../lib/content-types';
import { noFile, notFound, unprocessable, withDetail } from '../../lib/errors';
import { InvalidPathError, extensionOf, isImagePath, normaliseGamePath } from '../../lib/game-paths';
import {
  InvalidImageError,
  UndrawableSvgError,
  inspectBytes,
  type ImageInfo,
} from '../../lib/images/image-inspection';
import type { FreeSpaceGuard, SpaceNeed } from '../../storage/free-space';
import type { Storage } from '../../storage/storage';
import { assertUploadInTime, type StoredFilesService } from '../stored-files/stored-files.service';
import type { GameEngines } from './game-engine';
import {
  toGameFile,
  type GameFileRow,
  type GameFilesRepository,
  type NewGameFile,
} from './game-files.repository';
import type { GameGeneration } from './game-generation';
import type { GamesRepository } from './games.repository';
import type { GamesService } from './games.service';
import { guessIndex } from './guess-index';

/** One file of an upload request, already written to storage under a fresh key. */
interface StagedFile {
  path: string;
  storageKey: string;
  size: number;
  /** An image whose bytes came in memory (a zip's entry), checked as it was written; else checked from storage. */
  inspected?: Inspection;
}

/** An image's content check: its header, none (an .svg that draws nothing is an ordinary file), or the refusal. */
type Inspection = { image: ImageInfo | undefined } | { detail: ErrorDetail };

/**
 * Bytes of a zip's entries held in memory at once while they are written and checked (a single larger entry, up to
 * the per-file limit, goes alone): the constant-memory bound of reading each entry whole (decision 0061).
 */
const heldBytes = 64 * 1024 * 1024;

/**
 * How many files of a zip upload are stored, and then checked, at once: inflating its entries (zlib),
 * writing them and reading images' headers run on libuv's threads, so with several in flight both cores work
 * instead of one file waiting for the last. Entries are pulled from the zip only as a place frees up. A folder
 * upload's files come one after another in one request body (the next part only once this one is read), so
 * they are stored one at a time (`storedAtOnce` 1); its checks still run `filesAtOnce` at a time.
 */
export const filesAtOnce = 2 * availableParallelism();

/** A file part of an upload, in the order the request carries them. */
export interface IncomingFile {
  /** The browser's fullPath (or the file name when none was sent). */
  path: string;
  /** A stream (a multipart part, read as it comes), or bytes already in memory (a zip's entry, decision 0061). */
  content: Readable | Buffer;
}

/** Reads past a file's content that is not kept (a stream must be drained for the request to go on). */
export function drain(content: Readable | Buffer): void {
  if (Buffer.isBuffer(content)) return;
  content.on('error', () => {});
  content.resume();
}

/**
 * The normalised game path of an uploaded file, or a 422 naming the path and why it was refused (the file's
 * content is drained so the rest of the request can still be read).
 */
export function incomingPath(incoming: IncomingFile): string {
  try {
    return normaliseGamePath(incoming.path);
  } catch (error) {
    drain(incoming.content);
    if (error instanceof InvalidPathError) {
      throw unprocessable(error.message, [
        { path: '/fullPath', code: 'invalid_path', message: `${incoming.path}: ${error.message}` },
      ]);
    }
    throw error;
  }
}

/** Images whose replacement must keep the original's pixel size (SPEC §5, GF-5). */
const sizeCheckedOnReplace = new Set(['png', 'jpg', 'jpeg']);

export const uploadTooManyFiles = () =>
  withDetail(413, errorCodes.tooManyFiles, uploadMessages.tooManyFiles, '/files', 'too_many_files');

/** What an upload of a game's files works with. */
export interface GameUploadsDeps {
  /** The game's answer, and its play settings decided again after a change. */
  games: GamesService;
  repository: GamesRepository;
  gameFiles: GameFilesRepository;
  storage: Storage;
  generation: GameGeneration;
  storedFiles: StoredFilesService;
  /** Tells the play origin that a game's files changed, so it looks them up again (play/play-files.ts). */
  filesChanged: (gameId: number) => void;
  space: FreeSpaceGuard;
  /** Recognises a game's engine again once its files changed. */
  engines: GameEngines;
}

/** Uploads of a game's files (SPEC §7, POST /game/upload/{gameId} and the zip upload). Admin-only; routes enforce the role. */
export class GameUploads {
  private readonly games: GamesService;
  private readonly repository: GamesRepository;
  private readonly gameFiles: GameFilesRepository;
  private readonly storage: Storage;
  private readonly generation: GameGeneration;
  private readonly storedFiles: StoredFilesService;
  private readonly filesChanged: (gameId: number) => void;
  private readonly space: FreeSpaceGuard;
  private readonly engines: GameEngines;

  constructor(deps: GameUploadsDeps) {
    this.games = deps.games;
    this.repository = deps.repository;
    this.gameFiles = deps.gameFiles;
    this.storage = deps.storage;
    this.generation = deps.generation;
    this.storedFiles = deps.storedFiles;
    this.filesChanged = deps.filesChanged;
    this.space = deps.space;
    this.engines = deps.engines;
  }

  /** 507 STORAGE_FULL while a volume that `need` writes to is under its free-space threshold (storage/free-space.ts). */
  assertRoom(need: SpaceNeed): Promise<void> {
    return this.space.assertRoom(need);
  }

  /** Whether the game has a file under `folder/` at its top: an upload's shared top folder is then kept (decision 0052). */
  hasTopFolder(gameId: number, folder: string): Promise<boolean> {
    return this.gameFiles.hasTopFolder(gameId, folder);
  }

  /**
   * Stores the files of one upload request, all or nothing: every file is written to storage under a fresh
   * key, then checked (path, size, image content, the png/jpg size rule), made durable and then recorded in one
   * transaction. Any refusal removes what this request stored and leaves the game as it was (once the storage
   * answers, when it is what failed). A file whose path exists replaces that file's content and keeps its fileId.
   * Refused (507) while DATA_DIR is under its free-space threshold.
   *
   * Per file it costs one write to storage and, for an image, its check; the database sees a constant number of
   * statements per upload, plus one per replaced file, and the disk one batch of syncs (decision 0061).
   */
  async upload(
    gameId: number,
    files: AsyncIterable<IncomingFile>,
    storedAtOnce = 1,
  ): Promise<{ file: GameFile; replaced: boolean }[]> {
    const startedAt = Date.now();
    await this.games.get(gameId);
    await this.space.assertRoom('upload');
    const staged: StagedFile[] = [];
    const storing = new Set<Promise<void>>();
    let held = 0;
    let results: Awaited<ReturnType<GameUploads['record']>>;
    try {
      for await (const incoming of files) {
        // Dotfiles, dot-folders and system junk are no game files (decision 0052): read past, never stored.
        if (isSkippedUploadPath(incoming.path)) {
          drain(incoming.content);
          continue;
        }
        if (staged.length >= limits.adminUploadFiles) throw uploadTooManyFiles();
        const file = this.stagedFile(gameId, incoming);
        // Listed before it is written, so a refusal removes it whether or not its write had finished.
        staged.push(file);
        const bytes = Buffer.isBuffer(incoming.content) ? incoming.content.length : 0;
        held += bytes;
        const stored = this.stage(file, incoming.content).finally(() => {
          held -= bytes;
          storing.delete(stored);
        });
        storing.add(stored);
        stored.catch(() => {});
        while (storing.size >= storedAtOnce || (held > heldBytes && storing.size > 0))
          await Promise.race(storing);
      }
      await Promise.all(storing);
      if (staged.length === 0) {
        throw noFile(uploadMessages.noFileInUpload, uploadMessages.chooseFiles);
      }
      const checked = await this.check(gameId, staged);
      await this.storage.makeDurable(staged.map((file) => file.storageKey));
      assertUploadInTime(startedAt);
      results = await this.record(gameId, checked);
    } catch (error) {
      // The writes still running end first (each fails or finishes), then every one of them is removed.
      await Promise.allSettled(storing);
      await this.storedFiles.removeStaged(staged.map((file) => file.storageKey));
      throw error;
    }
    this.filesChanged(gameId);
    // After the commit, never undoing it: an object that cannot be deleted is an orphan for the services update.
    // A replaced file's previous original only: the play origin serves its copies (copiesKey) until the new
    // ones are made, and the incremental generation deletes them then (decision 0024).
    await this.storedFiles.deleteObjects(
      results.flatMap((result) => (result.previousKey ? [result.previousKey] : [])),
    );
    // The copies of new and replaced images, at once, while the game stays Ready (a Draft waits for Gen.).
    const images = results.some((result) => result.file.width !== null);
    if (images && (await this.repository.findById(gameId))?.gameStatusTypeId === GameStatus.Ready)
      await this.generation.refresh(gameId);
    const index = await this.markIndexIfNone(gameId);
    await this.engines.recompute(gameId);
    await this.games.redetect(gameId);
    return results.map(({ file, replaced }) => ({
      file: index === file.fileId ? { ...file, isStartFile: true } : file,
      replaced,
    }));
  }

  /**
   * After an upload (it has committed), a game without an index gets one (guessIndex: the shallowest
   * index.html, else the only .html), so a folder or zip upload can be generated at once. No splash is
   * guessed: the files screen shows the images for the admin to pick one. Answers the fileId it marked.
   */
  private async markIndexIfNone(gameId: number): Promise<number | undefined> {
    // A constant number of queries whatever the game's size: the flag, then the pages only.
    if (await this.gameFiles.hasStartFile(gameId)) return undefined;
    const pages = await this.gameFiles.listPages(gameId);
    const path = guessIndex(pages.map((file) => file.path));
    const chosen = pages.find((file) => file.path === path);
    if (!chosen) return undefined;
    return this.repository.transaction(async (trx) => {
      // The game row first: it locks the game, so a concurrent upload or setIndex cannot mark another meanwhile.
      if (!(await this.repository.markFilesChanged(gameId, trx))) return undefined;
      if (await this.gameFiles.hasStartFile(gameId, trx)) return undefined;
      if (!(await this.gameFiles.findFile(gameId, chosen.fileId, trx))) return undefined;
      await this.gameFiles.setStartFile(gameId, chosen.fileId, trx);
      return chosen.fileId;
    });
  }

  /** A file of an upload with its path checked and the key it is stored under (its size once written). */
  private stagedFile(gameId: number, incoming: IncomingFile): StagedFile {
    const path = incomingPath(incoming);
    const ext = extensionOf(path);
    return { path, storageKey: `games/${gameId}/files/${randomUUID()}${ext ? `.${ext}` : ''}`, size: 0 };
  }

  /**
   * Writes one file, without waiting for the disk (the upload's files are made durable together before they are
   * recorded). An image in memory is checked meanwhile from the same bytes, never read back.
   */
  private async stage(file: StagedFile, content: Readable | Buffer): Promise<void> {
    const inspecting =
      Buffer.isBuffer(content) && isImagePath(file.path) ? inspection(content, file.path) : undefined;
    // A failed write fails the upload; its image check is then moot.
    inspecting?.catch(() => {});
    file.size = (await this.storage.put(file.storageKey, content, { durable: false })).size;
    if (inspecting) file.inspected = await inspecting;
  }

  private async check(gameId: number, staged: StagedFile[]) {
    const seen = new Set<string>();
    const duplicates = new Set<StagedFile>();
    for (const file of staged) {
      if (seen.has(file.path)) duplicates.add(file);
      seen.add(file.path);
    }
    const existing = await this.gameFiles.findFilesByPaths(gameId, [...seen]);
    // Each file on its own, `filesAtOnce` at a time; the answers keep the upload's order.
    const outcomes = await pMap(
      staged,
      (file) =>
        duplicates.has(file)
          ? {
              detail: {
                path: `/files/${file.path}`,
                code: 'duplicate',
                message: `${file.path} is in this upload twice.`,
              },
            }
          : this.checkFile(file, existing.get(file.path)),
      { concurrency: filesAtOnce },
    );
    const details = outcomes.flatMap((outcome) => ('detail' in outcome ? [outcome.detail] : []));
    if (details.length > 0) throw unprocessable(details[0]!.message, details);
    return outcomes.flatMap((outcome) => ('checked' in outcome ? [outcome.checked] : []));
  }

  /** One file of an upload: an image must decode, and a replaced png or jpg keep its pixel size. */
  private async checkFile(
    file: StagedFile,
    existing: GameFileRow | undefined,
  ): Promise<
    | { detail: ErrorDetail }
    | { checked: StagedFile & { image: ImageInfo | undefined; existing: GameFileRow | undefined } }
  > {
    if (!isImagePath(file.path)) return { checked: { ...file, image: undefined, existing } };
    const inspected = file.inspected ?? (await this.inspectStored(file));
    if ('detail' in inspected) return inspected;
    const { image } = inspected;
    if (
      image &&
      existing &&
      sizeCheckedOnReplace.has(extensionOf(file.path)) &&
      existing.width !== null &&
      existing.height !== null &&
      (existing.width !== image.width || existing.height !== image.height)
    ) {
      return {
        detail: {
          path: `/files/${file.path}`,
          code: 'image_size',
          message: validationMessages.imageSize({ width: existing.width, height: existing.height }, image),
        },
      };
    }
    return { checked: { ...file, image, existing } };
  }

  /** The content check of an image streamed to storage (a folder upload's part): read back once. */
  private async inspectStored(file: StagedFile): Promise<Inspection> {
    const object = await this.storage.get(file.storageKey);
    if (!object)
      return refusedImage(file.path, new InvalidImageError(`${file.path} could not be read back.`));
    return inspection(await buffer(object.stream), file.path);
  }

  private async record(gameId: number, files: Awaited<ReturnType<GameUploads['check']>>) {
    return this.repository.transaction(async (trx) => {
      // First: it locks the game row until the commit, so parallel uploads to one game record one after
      // another, each reading the fileIds and paths the previous ones committed (never max + 1 twice).
      if (!(await this.repository.markFilesChanged(gameId, trx))) throw notFound('Game');
      let nextFileId = await this.gameFiles.nextFileId(gameId, trx);
      // Read again inside the transaction: a concurrent upload may have added the same paths meanwhile.
      const existing = await this.gameFiles.findFilesByPaths(
        gameId,
        files.map((file) => file.path),
        trx,
      );
      const added: NewGameFile[] = [];
      const recorded: ({ replaced: GameFileRow; previousKey: string } | { fileId: number })[] = [];
      for (const file of files) {
        const content = {
          width: file.image?.width ?? null,
          height: file.image?.height ?? null,
          size: file.size,
          contentType: servedAs(file.path).contentType,
          storageKey: file.storageKey,
        };
        const row = existing.get(file.path);
        if (row) {
          const replaced = await this.gameFiles.replaceFileContent(row.id, content, trx);
          recorded.push({ replaced, previousKey: row.storageKey });
        } else {
          const fileId = nextFileId++;
          added.push({ gameId, fileId, path: file.path, ...content });
          recorded.push({ fileId });
        }
      }
      const inserted = await this.gameFiles.insertFiles(added, trx);
      return recorded.map((outcome) =>
        'replaced' in outcome
          ? { file: toGameFile(outcome.replaced), replaced: true, previousKey: outcome.previousKey }
          : { file: toGameFile(inserted.get(outcome.fileId)!), replaced: false },
      );
    });
  }
}

/** An image's content check from its bytes: its header, or the refusal that names it. */
async function inspection(bytes: Buffer, path: string): Promise<Inspection> {
  try {
    return { image: await inspectBytes(bytes, path) };
  } catch (error) {
    if (!(error instanceof InvalidImageError)) throw error;
    return refusedImage(path, error);
  }
}

/** An .svg that draws nothing (a web font, an empty file) is an ordinary file, stored as it is; else a refusal. */
function refusedImage(path: string, error: InvalidImageError): Inspection {
  if (error instanceof UndrawableSvgError) return { image: undefined };
  return { detail: { path: `/files/${path}`, code: 'invalid_image', message: error.message } };
}
