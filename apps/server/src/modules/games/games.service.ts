import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pMap from 'p-map';
import type { Readable } from 'node:stream';
import {
  isSkippedUploadPath,
  GameStatus,
  canBeIndex,
  fileKindOf,
  indexRuleMessage,
  limits,
  uploadMessages,
  validationMessages,
  type CreateGameBody,
  type ErrorDetail,
  type Game,
  type GameFile,
  type SearchFilter,
  type UpdateGameBody,
  type User,
} from '@reskin/contract';
import type { Dialect } from '../../db/database';
import { maySeeGame } from './game-access';
import { servedAs } from '../../lib/content-types';
import { AppError, notFound, unprocessable } from '../../lib/errors';
import { InvalidPathError, extensionOf, isImagePath, normaliseGamePath } from '../../lib/game-paths';
import {
  InvalidImageError,
  UndrawableSvgError,
  inspectImage,
  type ImageInfo,
} from '../../lib/images/image-inspection';
import { compileFilter, pickFields } from '../../search/filter';
import type { Page } from '../../search/page';
import type { FreeSpaceGuard, SpaceNeed } from '../../storage/free-space';
import { readPrefix } from '../../storage/read-prefix';
import type { Storage } from '../../storage/storage';
import {
  assertUploadInTime,
  withVariants,
  type StoredFilesService,
} from '../stored-files/stored-files.service';
import { PreviewsService } from '../previews/previews.service';
import type { GameEngines } from './game-engine';
import type { GameGeneration } from './game-generation';
import { guessIndex } from './guess-index';
import {
  searchableGame,
  searchableGameFile,
  toGameFile,
  type GameFileRow,
  type GamesRepository,
} from './games.repository';
import { detectPlaySettings } from './play-detection';

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
  new AppError(413, 'PayloadTooLargeError', uploadMessages.tooManyFiles, 'TOO_MANY_FILES', [
    { path: '/files', code: 'too_many_files', message: uploadMessages.tooManyFiles },
  ]);

/** Games and their files (SPEC §7 "Games", POST /game/upload/{gameId}). Admin-only; routes enforce the role. */
export class GamesService {
  constructor(
    private readonly games: GamesRepository,
    private readonly storage: Storage,
    private readonly dialect: Dialect,
    private readonly generation: GameGeneration,
    private readonly storedFiles: StoredFilesService,
    /** Tells the play origin that a game's files changed, so it looks them up again (play/play-files.ts). */
    private readonly filesChanged: (gameId: number) => void,
    private readonly space: FreeSpaceGuard,
    /** Recognises a game's engine again once its files changed. */
    private readonly engines: GameEngines,
    /** The image previews' URLs in the file lists and the games list (decision 0038). */
    private readonly previews: PreviewsService,
  ) {}

  /** 507 STORAGE_FULL while a volume that `need` writes to is under its free-space threshold (storage/free-space.ts). */
  assertRoom(need: SpaceNeed): Promise<void> {
    return this.space.assertRoom(need);
  }

  /** POST /games/filter: one page of the games matching a search query, and how many match in all. */
  async filter(user: User, filter: SearchFilter): Promise<Page<Partial<Game>>> {
    const compiled = compileFilter(filter, searchableGame, this.dialect);
    const page = await this.games.list(compiled);
    // The copies' progress goes with the status it qualifies ("Updating copies (12 of 40)" instead of Ready).
    let fields = compiled.fields?.includes('gameStatusTypeId')
      ? [...compiled.fields, 'copiesCurrent', 'copiesTotal']
      : compiled.fields;
    // The splash's thumbnail goes with the splash: the list needs no call per row for its images.
    const thumbnails = !fields || fields.includes('imagePath');
    if (thumbnails && fields) fields = [...fields, 'thumbnailUrl'];
    const splashes = thumbnails ? await this.games.splashFiles(page.rows.map((game) => game.id)) : new Map();
    const url = thumbnails ? await this.previews.urlsFor(user) : undefined;
    return {
      ...page,
      rows: page.rows.map((game) => {
        if (!url) return pickFields(game, fields);
        const splash = splashes.get(game.id);
        const key = splash ? PreviewsService.previewSource(user, splash) : null;
        return pickFields({ ...game, thumbnailUrl: key === null ? null : url(key, 'thumb') }, fields);
      }),
    };
  }

  async get(id: number): Promise<Game> {
    const game = await this.games.findById(id);
    if (!game) throw notFound('Game');
    return game;
  }

  async create(body: CreateGameBody): Promise<Game> {
    // A game without files: what detection decides for none (stored, not isolated), with its reasons.
    return this.get(await this.games.insert(body, await detectPlaySettings([], async () => undefined)));
  }

  async update(id: number, body: UpdateGameBody): Promise<Game> {
    const game = await this.get(id);
    if (body.gameStatusTypeId !== game.gameStatusTypeId && body.gameStatusTypeId !== GameStatus.Draft) {
      throw unprocessable('Only Draft can be set by hand; Ready comes from generating the game files.', [
        {
          path: '/gameStatusTypeId',
          code: 'status',
          message: 'Only Draft can be set by hand; press Gen. to make the game Ready.',
        },
      ]);
    }
    await this.games.update(id, {
      name: body.name,
      description: body.description,
      width: body.width,
      height: body.height,
      gameStatusTypeId: body.gameStatusTypeId,
      isActive: body.isActive,
      ...(body.precompressed !== undefined && { precompressed: body.precompressed }),
      ...(body.isolated !== undefined && { isolated: body.isolated }),
    });
    // The play origin's kept answers carry the settings (headers, types): this server forgets them at once.
    if (body.precompressed !== undefined || body.isolated !== undefined) this.filesChanged(id);
    return this.get(id);
  }

  /**
   * Decides the game's `auto` play settings again from its files (decision 0022), after they changed.
   * Detection never fails on what the files hold; its answer is kept only if the files did not change meanwhile.
   */
  private async redetect(gameId: number): Promise<void> {
    const changedAt = await this.games.filesChangedAt(gameId);
    if (changedAt === undefined) return;
    const files = await this.games.listFiles(gameId);
    const detection = await detectPlaySettings(files, (file, bytes) =>
      readPrefix(this.storage, file.storageKey, bytes, file.size),
    );
    if (await this.games.recordDetection(gameId, detection, changedAt)) this.filesChanged(gameId);
  }

  /**
   * Deletes a game with its records (cascade) and then every stored file they point to: game files and their
   * generated copies, helper files, the files of its versions.
   */
  async delete(id: number): Promise<void> {
    if (!(await this.storedFiles.deleteOwner({ kind: 'game', id }))) throw notFound('Game');
  }

  /**
   * Starts "Gen." in the background; a second press while it runs starts nothing. Refused (507) while DATA_DIR is
   * under its free-space threshold.
   */
  async generate(id: number): Promise<Game> {
    const game = await this.get(id);
    if (!(await this.mustHaveIndex(id))) {
      throw unprocessable('Mark the index file before generating.', [
        {
          path: '/files',
          code: 'no_index',
          message: `${game.name} has no index file: mark one on its files screen.`,
        },
      ]);
    }
    await this.space.assertRoom('generation');
    await this.generation.start(id);
    return this.get(id);
  }

  /** POST /games/{id}/files/filter (admins): one page of a game's files matching a search query; 404 for no game. */
  async filterFiles(user: User, gameId: number, filter: SearchFilter): Promise<Page<Partial<GameFile>>> {
    const compiled = compileFilter(filter, searchableGameFile, this.dialect);
    await this.get(gameId);
    const page = await this.games.filterFiles(gameId, compiled);
    // The previews go with a whole row: a query that names its `fields` gets exactly those.
    if (compiled.fields)
      return { ...page, rows: page.rows.map((row) => pickFields(toGameFile(row), compiled.fields)) };
    const url = await this.previews.urlsFor(user);
    return {
      ...page,
      rows: page.rows.map((row) => ({
        ...toGameFile(row),
        previews: PreviewsService.gameFilePreviews(user, row, url),
      })),
    };
  }

  /**
   * A game's files: admins see any game's, other users only those of a game assigned to them (else 404); each image
   * with its previews as the caller sees it.
   */
  async files(user: User, gameId: number): Promise<GameFile[]> {
    if (!(await maySeeGame(this.games, user, gameId))) throw notFound('Game');
    await this.get(gameId);
    const url = await this.previews.urlsFor(user);
    return (await this.games.listFiles(gameId)).map((row) => ({
      ...toGameFile(row),
      previews: PreviewsService.gameFilePreviews(user, row, url),
    }));
  }

  /** Marks the index file; the start flag clears on every other file of the game (GF-2). */
  async setIndex(gameId: number, fileId: number): Promise<GameFile> {
    const file = await this.mustFindFile(gameId, fileId);
    // Only a page can start a game: an image or a script marked by a slip would break every play.
    if (!canBeIndex(file.path)) {
      throw unprocessable(indexRuleMessage, [
        { path: '/fileId', code: 'not_html', message: `${file.path}: ${indexRuleMessage}` },
      ]);
    }
    await this.games.transaction(async (trx) => {
      await this.games.markFilesChanged(gameId, trx);
      await this.games.setStartFile(gameId, fileId, trx);
    });
    return toGameFile(await this.mustFindFile(gameId, fileId));
  }

  /** Marks the splash image, which becomes the game's card image (imagePath). */
  async setSplash(gameId: number, fileId: number): Promise<GameFile> {
    const file = await this.mustFindFile(gameId, fileId);
    if (fileKindOf(file) !== 'image') {
      throw unprocessable('The splash must be an image.', [
        {
          path: '/fileId',
          code: 'not_image',
          message: `${file.path} is not an image; the splash must be one.`,
        },
      ]);
    }
    await this.games.transaction(async (trx) => {
      // The game row first, as in every transaction that changes files (markFilesChanged).
      await this.games.update(gameId, { imagePath: file.path }, trx);
      await this.games.setSplashFile(gameId, fileId, trx);
    });
    return toGameFile(await this.mustFindFile(gameId, fileId));
  }

  /**
   * Deletes a game file: its record, then its object with the copies of its content and those the play origin
   * served for it (copiesKey). A Ready game stays Ready (decision 0024).
   */
  async deleteFile(gameId: number, fileId: number): Promise<void> {
    await this.mustFindFile(gameId, fileId);
    let deleted: GameFileRow | undefined;
    await this.games.transaction(async (trx) => {
      await this.games.markFilesChanged(gameId, trx);
      // Read again under the game's lock: a replacement may have committed since (its new key is the one to delete).
      deleted = await this.games.findFile(gameId, fileId, trx);
      if (!deleted) return;
      if (deleted.isSplash) await this.games.update(gameId, { imagePath: '' }, trx);
      await this.games.deleteFile(deleted.id, trx);
    });
    if (!deleted) throw notFound('Game file');
    this.filesChanged(gameId);
    await this.engines.recompute(gameId);
    await this.redetect(gameId);
    const { storageKey, copiesKey } = deleted;
    await this.storedFiles.deleteObjects([
      ...withVariants(storageKey),
      ...(copiesKey !== null && copiesKey !== storageKey ? withVariants(copiesKey).slice(1) : []),
    ]);
  }

  /**
   * Stores the files of one upload request, all or nothing: every file is streamed to storage under a fresh
   * key, then checked (path, size, image content, the png/jpg size rule), then recorded in one transaction.
   * Any refusal removes what this request stored and leaves the game as it was (once the storage answers, when it
   * is what failed). A file whose path exists replaces that file's content and keeps its fileId. Refused (507)
   * while DATA_DIR is under its free-space threshold.
   */
  /** Whether the game has a file under `folder/` at its top: an upload's shared top folder is then kept (decision 0052). */
  hasTopFolder(gameId: number, folder: string): Promise<boolean> {
    return this.games.hasTopFolder(gameId, folder);
  }

  async upload(
    gameId: number,
    files: AsyncIterable<IncomingFile>,
    storedAtOnce = 1,
  ): Promise<{ file: GameFile; replaced: boolean }[]> {
    const startedAt = Date.now();
    await this.get(gameId);
    await this.space.assertRoom('upload');
    const staged: StagedFile[] = [];
    const storing = new Set<Promise<void>>();
    let results: Awaited<ReturnType<GamesService['record']>>;
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
        throw unprocessable('The upload holds no file.', [
          { path: '/file', code: 'required', message: 'Choose at least one file.' },
        ]);
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
    if (images && (await this.games.findById(gameId))?.gameStatusTypeId === GameStatus.Ready)
      await this.generation.refresh(gameId);
    const index = await this.markIndexIfNone(gameId);
    await this.engines.recompute(gameId);
    await this.redetect(gameId);
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
    if (await this.games.hasStartFile(gameId)) return undefined;
    const pages = await this.games.listPages(gameId);
    const path = guessIndex(pages.map((file) => file.path));
    const chosen = pages.find((file) => file.path === path);
    if (!chosen) return undefined;
    return this.games.transaction(async (trx) => {
      // The game row first: it locks the game, so a concurrent upload or setIndex cannot mark another meanwhile.
      if (!(await this.games.markFilesChanged(gameId, trx))) return undefined;
      if (await this.games.hasStartFile(gameId, trx)) return undefined;
      if (!(await this.games.findFile(gameId, chosen.fileId, trx))) return undefined;
      await this.games.setStartFile(gameId, chosen.fileId, trx);
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
    const existing = await this.games.findFileByPath(gameId, file.path);
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

  private async record(gameId: number, files: Awaited<ReturnType<GamesService['check']>>) {
    return this.games.transaction(async (trx) => {
      // First: it locks the game row until the commit, so parallel uploads to one game record one after
      // another, each reading the fileIds and paths the previous ones committed (never max + 1 twice).
      if (!(await this.games.markFilesChanged(gameId, trx))) throw notFound('Game');
      let nextFileId = await this.games.nextFileId(gameId, trx);
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
        const existing = await this.games.findFileByPath(gameId, file.path, trx);
        if (existing) {
          await this.games.replaceFileContent(existing.id, content, trx);
          const row = await this.games.findFile(gameId, existing.fileId, trx);
          results.push({ file: toGameFile(row!), replaced: true, previousKey: existing.storageKey });
        } else {
          const fileId = nextFileId++;
          await this.games.insertFile({ gameId, fileId, path: file.path, ...content }, trx);
          const row = await this.games.findFile(gameId, fileId, trx);
          results.push({ file: toGameFile(row!), replaced: false });
        }
      }
      return results;
    });
  }

  private async mustHaveIndex(gameId: number): Promise<boolean> {
    return (await this.games.listFiles(gameId)).some((file) => file.isStartFile === 1);
  }

  private async mustFindFile(gameId: number, fileId: number): Promise<GameFileRow> {
    await this.get(gameId);
    const file = await this.games.findFile(gameId, fileId);
    if (!file) throw notFound('Game file');
    return file;
  }
}
