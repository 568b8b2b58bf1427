import {
  can,
  errorCodes,
  extensionOfName,
  gridFrames,
  gridProblem,
  kindOfName,
  limits,
  type Atlas,
  type AtlasGrid,
  type AtlasProblem,
  type GameAtlases,
  type User,
} from '@reskin/contract';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/errors';
import type { Storage } from '../../storage/storage';
import { readPrefix } from '../../storage/read-prefix';
import { maySeeGame } from '../games/game-access';
import type { GameFileRow, GameFilesRepository } from '../games/game-files.repository';
import type { GamesRepository } from '../games/games.repository';
import type { AtlasGridRow, AtlasGridsRepository } from './atlas-grids.repository';
import { AtlasError, parseAtlasDescriptor } from './atlas-parsers';
import { resolveAtlas } from './atlas-resolution';
import { gwtAssetNames, isGwtAssetList } from './gwt-assets';

/**
 * Files never read as descriptors: scripts, pages, styles, fonts, binaries and archives. Every other file that is
 * not an image or a sound, and small enough, is read and recognised by its content (a `.txt` libGDX atlas, a JSON
 * atlas of any name).
 */
const neverDescriptors = new Set([
  'js',
  'mjs',
  'cjs',
  'ts',
  'html',
  'htm',
  'css',
  'map',
  'wasm',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'pck',
  'data',
  'bin',
  'mem',
  'gz',
  'br',
  'zip',
  'unityweb',
  'mp4',
  'webm',
  'glb',
  'gltf',
  'skel',
]);

export function mayBeDescriptor(file: Pick<GameFileRow, 'path' | 'size'>): boolean {
  return (
    kindOfName(file.path) === 'other' &&
    !neverDescriptors.has(extensionOfName(file.path)) &&
    file.size > 0 &&
    file.size <= limits.atlas.maxDescriptorBytes
  );
}

/** Games whose atlases are kept, the least recently asked dropped first. */
const keptGames = 200;

/**
 * A game's sprite sheets: every descriptor among its files, recognised by content and tied to its
 * images (atlas-resolution.ts), the uniform grids declared on its images, and the descriptors (or grids) that
 * cannot be used, with why. Found anew when the game's files (its filesChangedAt) or its grids have changed since
 * the last answer, else the kept answer.
 */
export class AtlasesService {
  private readonly kept = new LRUCache<number, { key: string; answer: GameAtlases }>({ max: keptGames });

  constructor(
    private readonly games: GamesRepository,
    private readonly gameFiles: GameFilesRepository,
    private readonly storage: Storage,
    private readonly grids: AtlasGridsRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * GET /games/{id}/atlases: administrators any game's, an artist (a role that changes versions) a game
   * assigned to them; a demo account is refused (403), someone else's or an unknown game is a 404.
   */
  async forGame(user: User, gameId: number): Promise<GameAtlases> {
    if (!can(user.roleTypeId, 'games.seeAll') && !can(user.roleTypeId, 'versions.change')) {
      throw forbidden("Only administrators and the game's artists see its sprite sheets.");
    }
    if (!(await maySeeGame(this.games, user, gameId)) || !(await this.games.findById(gameId)))
      throw notFound('Game');
    return this.find(gameId);
  }

  /**
   * PUT /games/{id}/files/{fileId}/grid: declares (or changes) the uniform grid of a game image and answers the
   * atlas it makes. Administrators only (artists and demo accounts 403: decision 0047). Not an
   * image of known size, or a grid that cuts no whole frame or too many: 422. A grid whose frames versions have
   * replaced stays as it is (409): its frames' places would move under them.
   */
  async declareGrid(user: User, gameId: number, fileId: number, grid: AtlasGrid): Promise<Atlas> {
    const file = await this.gridImage(user, gameId, fileId);
    if (file.width === null || file.height === null || kindOfName(file.path) !== 'image') {
      throw unprocessable(`${file.path} is not an image of known size: only an image can have a grid.`);
    }
    const problem = gridProblem(file.width, file.height, grid);
    if (problem) throw unprocessable(problem);
    await this.mustBeFree(gameId, fileId);
    await this.grids.save(gameId, fileId, grid);
    const atlas = (await this.find(gameId)).atlases.find(
      (found) => found.format === 'grid' && found.descriptorFileId === fileId,
    );
    // Only a change of the file between the checks and the search loses the grid's atlas; the search says why.
    if (!atlas)
      throw conflict(
        `The grid of ${file.path} cannot be used: the file changed meanwhile.`,
        errorCodes.conflict,
      );
    return atlas;
  }

  /** DELETE /games/{id}/files/{fileId}/grid: the image is a plain image again. Who may: as declareGrid; no grid: 404. */
  async removeGrid(user: User, gameId: number, fileId: number): Promise<void> {
    await this.gridImage(user, gameId, fileId);
    await this.mustBeFree(gameId, fileId);
    if (!(await this.grids.remove(gameId, fileId))) throw notFound('Grid');
  }

  private async gridImage(user: User, gameId: number, fileId: number): Promise<GameFileRow> {
    if (!can(user.roleTypeId, 'atlases.declareGrid')) {
      throw forbidden('Only administrators declare or remove sprite sheet grids.');
    }
    if (!(await maySeeGame(this.games, user, gameId)) || !(await this.games.findById(gameId)))
      throw notFound('Game');
    const file = await this.gameFiles.findFile(gameId, fileId);
    if (!file) throw notFound('File');
    return file;
  }

  private async mustBeFree(gameId: number, fileId: number): Promise<void> {
    if (await this.grids.framesReplaced(gameId, fileId)) {
      throw conflict(
        'Versions have replaced frames of this sheet: its grid stays as it is until they restore them.',
        errorCodes.conflict,
      );
    }
  }

  /**
   * The game's atlases, found anew only when its files or its grids changed since they were last found. A caller
   * that read when the game's files last changed (the intake's one read) passes it.
   */
  async find(gameId: number, known?: { filesChangedAt: string | null }): Promise<GameAtlases> {
    const filesChangedAt = known ? known.filesChangedAt : ((await this.games.filesChangedAt(gameId)) ?? null);
    const grids = await this.grids.list(gameId);
    // The grids themselves are part of the key (a handful of small rows): a change within one millisecond counts.
    const key = JSON.stringify([
      filesChangedAt,
      grids.map((g) => [g.fileId, g.frameWidth, g.frameHeight, g.margin, g.spacing]),
    ]);
    const kept = this.kept.get(gameId);
    if (kept && kept.key === key) return kept.answer;
    const answer = await this.findAnew(gameId, grids);
    this.kept.set(gameId, { key, answer });
    return answer;
  }

  private async findAnew(gameId: number, grids: AtlasGridRow[]): Promise<GameAtlases> {
    const files = await this.gameFiles.listFiles(gameId);
    const byPath = new Map(files.map((file) => [file.path, file]));
    const atlases: Atlas[] = [];
    const problems: AtlasProblem[] = [];
    const storedNames = new Map<string, string>();
    for (const file of files.filter((found) => isGwtAssetList(found.path))) {
      const content = await readPrefix(
        this.storage,
        file.storageKey,
        limits.atlas.maxDescriptorBytes,
        file.size,
      );
      if (content)
        for (const [name, stored] of gwtAssetNames(file.path, content.toString('utf8')))
          storedNames.set(name, stored);
    }
    for (const file of files.filter(mayBeDescriptor)) {
      const content = await readPrefix(
        this.storage,
        file.storageKey,
        limits.atlas.maxDescriptorBytes,
        file.size,
      );
      if (!content) continue;
      try {
        const parsed = parseAtlasDescriptor(content.toString('utf8'));
        if (!parsed) continue;
        atlases.push(resolveAtlas(file, parsed, byPath, storedNames));
        for (const problem of parsed.problems)
          problems.push({ path: file.path, fileId: file.fileId, problem, used: true });
      } catch (error) {
        // A descriptor is an uploaded file: whatever it makes the parsers do is its problem line, never a 500 of
        // the route or a failed generation (a parser's own bug is logged, and the file is not used).
        if (!(error instanceof AtlasError))
          this.log.error(
            { err: error, gameId, path: file.path },
            'a sprite sheet descriptor could not be read',
          );
        const problem =
          error instanceof AtlasError ? error.message : 'It could not be read as a sprite sheet descriptor.';
        problems.push({ path: file.path, fileId: file.fileId, problem, used: false });
      }
    }
    // Grids after the descriptors: a frame name a descriptor gives the same image wins (framesOfSheet).
    const byId = new Map(files.map((file) => [file.fileId, file]));
    for (const grid of grids) {
      const file = byId.get(grid.fileId);
      if (!file) continue;
      const { width, height } = file;
      const problem =
        width === null || height === null || kindOfName(file.path) !== 'image'
          ? `${file.path} is no longer an image of known size.`
          : gridProblem(width, height, grid);
      if (problem || width === null || height === null) {
        problems.push({ path: file.path, fileId: file.fileId, problem: `Its grid: ${problem}`, used: false });
        continue;
      }
      atlases.push({
        descriptor: file.path,
        descriptorFileId: file.fileId,
        format: 'grid',
        pages: [{ image: file.path, fileId: file.fileId, width, height }],
        frames: gridFrames(width, height, grid),
      });
    }
    return { atlases, problems };
  }
}
