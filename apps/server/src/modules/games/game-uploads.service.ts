import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
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
  inspectImage,
  type ImageInfo,
} from '../../lib/images/image-inspection';
import type { FreeSpaceGuard, SpaceNeed } from '../../storage/free-space';
import type { Storage } from '../../storage/storage';
import { assertUploadInTime, type StoredFilesService } from '../stored-files/stored-files.service';
import type { GameEngines } from './game-engine';
import { toGameFile, type GameFileRow, type GameFilesRepository } from './game-files.repository';
import type { GameGeneration } from './game-generation';
import type { GamesRepository } from './games.repository';
import type { GamesService } from './games.service';
import { guessIndex } from './guess-index';

/** One file of an upload request, already streamed to storage under a fresh key. */
interface StagedFile {
  path: string;
  storageKey: string;
  size: number;
}

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
  content: Readable;
}

/**
 * The normalised game path of an uploaded file, or a 422 naming the path and why it was refused (the file's
 * content is drained so the rest of the request can still be read).
 */
export function incomingPath(incoming: IncomingFile): string {
  try {
    return normaliseGamePath(incoming.path);
  } catch (error) {
    incoming.content.resume();
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
   * Stores the files of one upload request, all or nothing: every file is streamed to storage under a fresh
   * key, then checked (path, size, image content, the png/jpg size rule), then recorded in one transaction.
   * Any refusal removes what this request stored and leaves the game as it was (once the storage answers, when it
   * is what failed). A file whose path exists replaces that file's content and keeps its fileId. Refused (507)
   * while DATA_DIR is under its free-space threshold.
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
    let results: Awaited<ReturnType<GameUploads['record']>>;
    try {
      for await (const incoming of files) {
        // Dotfiles, dot-folders and system junk are no game files (decision 0052): read past, never stored.
        if (isSkippedUploadPath(incoming.path)) {
          incoming.content.on('error', () => {});
          incoming.content.resume();
          continue;
        }
        if (staged.length >= limits.adminUploadFiles) throw uploadTooManyFiles();
        const file = this.stagedFile(gameId, incoming);
        // Listed before it is written, so a refusal removes it whether or not its write had finished.
        staged.push(file);
        const stored = this.storage.put(file.storageKey, incoming.content).then(({ size }) => {
          file.size = size;
        });
        storing.add(stored);
        stored.then(
          () => storing.delete(stored),
          () => {},
        );
        if (storing.size >= storedAtOnce) await Promise.race(storing);
      }
      await Promise.all(storing);
      if (staged.length === 0) {
        throw noFile(uploadMessages.noFileInUpload, uploadMessages.chooseFiles);
      }
      const checked = await this.check(gameId, staged);
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

  private async check(gameId: number, staged: StagedFile[]) {
    const seen = new Set<string>();
    const duplicates = new Set<StagedFile>();
    for (const file of staged) {
      if (seen.has(file.path)) duplicates.add(file);
      seen.add(file.path);
    }
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
          : this.checkFile(gameId, file),
      { concurrency: filesAtOnce },
    );
    const details = outcomes.flatMap((outcome) => ('detail' in outcome ? [outcome.detail] : []));
    if (details.length > 0) throw unprocessable(details[0]!.message, details);
    return outcomes.flatMap((outcome) => ('checked' in outcome ? [outcome.checked] : []));
  }

  /** One file of an upload: an image must decode, and a replaced png or jpg keep its pixel size. */
  private async checkFile(
    gameId: number,
    file: StagedFile,
  ): Promise<
    | { detail: ErrorDetail }
    | { checked: StagedFile & { image: ImageInfo | undefined; existing: GameFileRow | undefined } }
  > {
    const detail = (code: string, message: string) => ({
      detail: { path: `/files/${file.path}`, code, message },
    });
    const existing = await this.gameFiles.findFileByPath(gameId, file.path);
    let image: ImageInfo | undefined;
    if (isImagePath(file.path)) {
      try {
        const object = await this.storage.get(file.storageKey);
        if (!object) throw new InvalidImageError(`${file.path} could not be read back.`);
        image = await inspectImage(object.stream, file.path);
      } catch (error) {
        if (!(error instanceof InvalidImageError)) throw error;
        // An .svg that draws nothing (a web font, an empty file) is an ordinary file, stored as it is.
        if (!(error instanceof UndrawableSvgError)) return detail('invalid_image', error.message);
      }
      const ext = extensionOf(file.path);
      if (
        image &&
        existing &&
        sizeCheckedOnReplace.has(ext) &&
        existing.width !== null &&
        existing.height !== null
      ) {
        if (existing.width !== image.width || existing.height !== image.height) {
          return detail(
            'image_size',
            validationMessages.imageSize({ width: existing.width, height: existing.height }, image),
          );
        }
      }
    }
    return { checked: { ...file, image, existing } };
  }

  private async record(gameId: number, files: Awaited<ReturnType<GameUploads['check']>>) {
    return this.repository.transaction(async (trx) => {
      // First: it locks the game row until the commit, so parallel uploads to one game record one after
      // another, each reading the fileIds and paths the previous ones committed (never max + 1 twice).
      if (!(await this.repository.markFilesChanged(gameId, trx))) throw notFound('Game');
      let nextFileId = await this.gameFiles.nextFileId(gameId, trx);
      const results: { file: GameFile; replaced: boolean; previousKey?: string }[] = [];
      for (const file of files) {
        const content = {
          width: file.image?.width ?? null,
          height: file.image?.height ?? null,
          size: file.size,
          contentType: servedAs(file.path).contentType,
          storageKey: file.storageKey,
        };
        // Re-read inside the transaction: a concurrent upload may have added the same path meanwhile.
        const existing = await this.gameFiles.findFileByPath(gameId, file.path, trx);
        if (existing) {
          await this.gameFiles.replaceFileContent(existing.id, content, trx);
          const row = await this.gameFiles.findFile(gameId, existing.fileId, trx);
          results.push({ file: toGameFile(row!), replaced: true, previousKey: existing.storageKey });
        } else {
          const fileId = nextFileId++;
          await this.gameFiles.insertFile({ gameId, fileId, path: file.path, ...content }, trx);
          const row = await this.gameFiles.findFile(gameId, fileId, trx);
          results.push({ file: toGameFile(row!), replaced: false });
        }
      }
      return results;
    });
  }
}
