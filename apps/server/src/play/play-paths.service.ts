import { GameStatus, can, type GamePath, type GameVersion, type User } from '@reskin/contract';
import { conflict, notFound } from '../lib/errors';
import { maySeeGame } from '../modules/games/game-access';
import type { GamesRepository } from '../modules/games/games.repository';
import type { PlayOrigins } from './play-origins';
import type { PlayClaims, PlayTokens, PlayView } from './play-tokens';

/** Builds the play URLs that the path calls answer (DESIGN.md "Play"). */
export class PlayPathsService {
  constructor(
    private readonly games: GamesRepository,
    private readonly tokens: PlayTokens,
    private readonly origins: PlayOrigins,
    /** The user's current token version, which each play link carries (decision 0013). */
    private readonly tokenVersionOf: (userId: number) => Promise<number>,
  ) {}

  /**
   * The root of a play link for the user, on the game's play origin: one game (or version) and one view, with
   * the user's token version.
   */
  private async root(user: User, claims: Omit<PlayClaims, 'u' | 'tv'>): Promise<string> {
    const token = await this.tokens.sign({ ...claims, u: user.id, tv: await this.tokenVersionOf(user.id) });
    return `${this.origins.of(claims.g)}/p/${token}/`;
  }

  /**
   * GET /games/{id}/path/: administrators get the original; anyone else needs an active assignment of the
   * game and gets the watermarked view in its place (only admins ever receive unwatermarked originals).
   */
  async gamePaths(user: User, gameId: number): Promise<GamePath> {
    // Someone else's (or an unassigned) game is a 404, like an unknown one.
    if (!(await maySeeGame(this.games, user, gameId))) throw notFound('Game');
    const index = await this.playableIndex(gameId);
    const main: PlayView = can(user.roleTypeId, 'play.original') ? 'original' : 'watermark';
    const url = async (view: PlayView) =>
      `${await this.root(user, { g: gameId, view })}${encodePath(index)}`;
    const mainUrl = await url(main);
    return {
      rootPath: mainUrl.slice(0, mainUrl.length - encodePath(index).length),
      orjFile: mainUrl,
      emtFile: await url('skeleton'),
      wtmFile: mainUrl,
    };
  }

  /**
   * GET /game-versions/path/{id}/{gameId}: orjFile is the user's version (their replacements, else the
   * watermarked view), emtFile the skeleton, wtmFile the watermarked view (the original for admins).
   */
  async versionPaths(user: User, version: GameVersion): Promise<GamePath> {
    const index = await this.playableIndex(version.gameId);
    const url = async (view: PlayView, versionId?: number) =>
      `${await this.root(user, { g: version.gameId, view, ...(versionId ? { v: versionId } : {}) })}${encodePath(index)}`;
    const own = await url('version', version.id);
    return {
      rootPath: own.slice(0, own.length - encodePath(index).length),
      orjFile: own,
      emtFile: await url('skeleton'),
      wtmFile: await url(can(user.roleTypeId, 'play.original') ? 'original' : 'watermark'),
    };
  }

  /**
   * GET /games/{id}/files-root (admins only; the route guards it): the root URL of the game's original view,
   * whatever its status, so the admin's files screen and games list can show its images as thumbnails (a Draft
   * game has no play URLs yet, and has to be looked at to pick a splash).
   */
  async originalRoot(user: User, gameId: number): Promise<{ rootPath: string }> {
    if (!(await this.games.findById(gameId))) throw notFound('Game');
    return { rootPath: await this.root(user, { g: gameId, view: 'original' }) };
  }

  /**
   * A game's card image (its splash) on the play origin, watermarked unless the user is an admin; null when
   * the game has no splash or is not generated.
   */
  async imageUrl(user: User, gameId: number, imagePath: string): Promise<string | null> {
    if (!imagePath) return null;
    const game = await this.games.findById(gameId);
    if (game?.gameStatusTypeId !== GameStatus.Ready) return null;
    const view: PlayView = can(user.roleTypeId, 'play.original') ? 'original' : 'watermark';
    return `${await this.root(user, { g: gameId, view })}${encodePath(imagePath)}`;
  }

  private async playableIndex(gameId: number): Promise<string> {
    const game = await this.games.findById(gameId);
    if (!game) throw notFound('Game');
    if (game.gameStatusTypeId !== GameStatus.Ready) {
      throw conflict('The game is not ready to play: generate its files first.', 'GAME_NOT_READY');
    }
    const index = (await this.games.listFiles(gameId)).find((file) => file.isStartFile === 1);
    if (!index) throw conflict('The game has no index file.', 'NO_INDEX_FILE');
    return index.path;
  }
}

/** A game path as a URL path: each segment percent-encoded, the slashes kept. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
