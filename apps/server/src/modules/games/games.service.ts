import {
  GameStatus,
  canBeIndex,
  fileKindOf,
  indexRuleMessage,
  type CreateGameBody,
  type FilePageQuery,
  type Game,
  type GameFile,
  type SearchFilter,
  type UpdateGameBody,
  type User,
} from '@reskin/contract';
import type { Dialect } from '../../db/database';
import { notFound, unprocessable } from '../../lib/errors';
import { compileFilter, pickFields } from '../../search/filter';
import type { Page } from '../../search/page';
import type { FreeSpaceGuard } from '../../storage/free-space';
import { readPrefix } from '../../storage/read-prefix';
import type { Storage } from '../../storage/storage';
import { withVariants, type StoredFilesService } from '../stored-files/stored-files.service';
import { PreviewsService } from '../previews/previews.service';
import { maySeeGame } from './game-access';
import type { GameDetectionRepository } from './game-detection.repository';
import type { GameEngines } from './game-engine';
import {
  searchableGameFile,
  toGameFile,
  type GameFileRow,
  type GameFilesRepository,
} from './game-files.repository';
import type { GameGeneration } from './game-generation';
import { searchableGame, type GamesRepository } from './games.repository';
import { detectPlaySettings } from './play-detection';

/** What the games service works with. */
export interface GamesServiceDeps {
  games: GamesRepository;
  gameFiles: GameFilesRepository;
  detection: GameDetectionRepository;
  storage: Storage;
  dialect: Dialect;
  generation: GameGeneration;
  storedFiles: StoredFilesService;
  /** Tells the play origin that a game's files changed, so it looks them up again (play/play-files.ts). */
  filesChanged: (gameId: number) => void;
  space: FreeSpaceGuard;
  /** Recognises a game's engine again once its files changed. */
  engines: GameEngines;
  /** The image previews' URLs in the file lists and the games list (decision 0038). */
  previews: PreviewsService;
}

/** Games and their files (SPEC §7 "Games"; uploads: game-uploads.service.ts). Admin-only; routes enforce the role. */
export class GamesService {
  private readonly games: GamesRepository;
  private readonly gameFiles: GameFilesRepository;
  private readonly detection: GameDetectionRepository;
  private readonly storage: Storage;
  private readonly dialect: Dialect;
  private readonly generation: GameGeneration;
  private readonly storedFiles: StoredFilesService;
  private readonly filesChanged: (gameId: number) => void;
  private readonly space: FreeSpaceGuard;
  private readonly engines: GameEngines;
  private readonly previews: PreviewsService;

  constructor(deps: GamesServiceDeps) {
    this.games = deps.games;
    this.gameFiles = deps.gameFiles;
    this.detection = deps.detection;
    this.storage = deps.storage;
    this.dialect = deps.dialect;
    this.generation = deps.generation;
    this.storedFiles = deps.storedFiles;
    this.filesChanged = deps.filesChanged;
    this.space = deps.space;
    this.engines = deps.engines;
    this.previews = deps.previews;
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
    const splashes = thumbnails
      ? await this.gameFiles.splashFiles(page.rows.map((game) => game.id))
      : new Map();
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
  async redetect(gameId: number): Promise<void> {
    const changedAt = await this.games.filesChangedAt(gameId);
    if (changedAt === undefined) return;
    const files = await this.gameFiles.listFiles(gameId);
    const detection = await detectPlaySettings(files, (file, bytes) =>
      readPrefix(this.storage, file.storageKey, bytes, file.size),
    );
    if (await this.detection.recordDetection(gameId, detection, changedAt)) this.filesChanged(gameId);
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
    const page = await this.gameFiles.filterFiles(gameId, compiled);
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
   * with its previews as the caller sees it. In pages of `page` (decision 0063); every file without it.
   */
  async files(user: User, gameId: number, page: FilePageQuery = {}): Promise<GameFile[]> {
    if (!(await maySeeGame(this.games, user, gameId))) throw notFound('Game');
    await this.get(gameId);
    const url = await this.previews.urlsFor(user);
    return (await this.gameFiles.listFilesPage(gameId, page)).map((row) => ({
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
      await this.gameFiles.setStartFile(gameId, fileId, trx);
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
      await this.gameFiles.setSplashFile(gameId, fileId, trx);
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
      deleted = await this.gameFiles.findFile(gameId, fileId, trx);
      if (!deleted) return;
      if (deleted.isSplash) await this.games.update(gameId, { imagePath: '' }, trx);
      await this.gameFiles.deleteFile(deleted.id, trx);
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

  private async mustHaveIndex(gameId: number): Promise<boolean> {
    return (await this.gameFiles.listFiles(gameId)).some((file) => file.isStartFile === 1);
  }

  private async mustFindFile(gameId: number, fileId: number): Promise<GameFileRow> {
    await this.get(gameId);
    const file = await this.gameFiles.findFile(gameId, fileId);
    if (!file) throw notFound('Game file');
    return file;
  }
}
