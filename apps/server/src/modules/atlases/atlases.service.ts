import { can, extensionOfName, kindOfName, limits, type Atlas, type AtlasProblem, type GameAtlases, type User } from '@reskin/contract';
import { LRUCache } from 'lru-cache';
import { forbidden, notFound } from '../../lib/errors';
import type { Storage } from '../../storage/storage';
import { readPrefix } from '../../storage/read-prefix';
import { maySeeGame } from '../games/game-access';
import type { GameFileRow, GamesRepository } from '../games/games.repository';
import { AtlasError, parseAtlasDescriptor } from './atlas-parsers';
import { resolveAtlas } from './atlas-resolution';

/**
 * Files never read as descriptors: scripts, pages, styles, fonts, binaries and archives. Every other file that is
 * not an image or a sound, and small enough, is read and recognised by its content (a `.txt` libGDX atlas, a JSON
 * atlas of any name).
 */
const neverDescriptors = new Set(['js', 'mjs', 'cjs', 'ts', 'html', 'htm', 'css', 'map', 'wasm', 'woff', 'woff2', 'ttf', 'otf', 'eot', 'pck', 'data', 'bin', 'mem', 'gz', 'br', 'zip', 'unityweb', 'mp4', 'webm', 'glb', 'gltf', 'skel']);

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
 * A game's sprite sheets (issue 26): every descriptor among its files, recognised by content and tied to its
 * images (atlas-resolution.ts), and the descriptors that cannot be used, with why. Found anew when the game's
 * files have changed since the last answer (the game's filesChangedAt), else the kept answer.
 */
export class AtlasesService {
  private readonly kept = new LRUCache<number, { filesChangedAt: string | null; answer: GameAtlases }>({ max: keptGames });

  constructor(
    private readonly games: GamesRepository,
    private readonly storage: Storage,
  ) {}

  /**
   * GET /games/{id}/atlases: administrators any game's, an artist (a role that changes versions) a game
   * assigned to them; a demo account is refused (403), someone else's or an unknown game is a 404.
   */
  async forGame(user: User, gameId: number): Promise<GameAtlases> {
    if (!can(user.roleTypeId, 'games.seeAll') && !can(user.roleTypeId, 'versions.change')) {
      throw forbidden("Only administrators and the game's artists see its sprite sheets.");
    }
    if (!(await maySeeGame(this.games, user, gameId)) || !(await this.games.findById(gameId))) throw notFound('Game');
    return this.find(gameId);
  }

  /** The game's atlases, found anew only when its files changed since they were last found. */
  async find(gameId: number): Promise<GameAtlases> {
    const filesChangedAt = (await this.games.filesChangedAt(gameId)) ?? null;
    const kept = this.kept.get(gameId);
    if (kept && kept.filesChangedAt === filesChangedAt) return kept.answer;
    const answer = await this.findAnew(gameId);
    this.kept.set(gameId, { filesChangedAt, answer });
    return answer;
  }

  private async findAnew(gameId: number): Promise<GameAtlases> {
    const files = await this.games.listFiles(gameId);
    const byPath = new Map(files.map((file) => [file.path, file]));
    const atlases: Atlas[] = [];
    const problems: AtlasProblem[] = [];
    for (const file of files.filter(mayBeDescriptor)) {
      const content = await readPrefix(this.storage, file.storageKey, limits.atlas.maxDescriptorBytes, file.size);
      if (!content) continue;
      try {
        const parsed = parseAtlasDescriptor(content.toString('utf8'));
        if (parsed) atlases.push(resolveAtlas(file, parsed, byPath));
      } catch (error) {
        if (!(error instanceof AtlasError)) throw error;
        problems.push({ path: file.path, fileId: file.fileId, problem: error.message });
      }
    }
    return { atlases, problems };
  }
}
