import {
  can,
  effectiveIsolated,
  errorCodes,
  gameNotReadyMessage,
  isGameReady,
  limits,
  type Game,
  type GamePath,
  type GameVersion,
  type User,
} from '@reskin/contract';
import { conflict, notFound } from '../../lib/errors';
import { maySeeGame } from '../games/game-access';
import type { GameFilesRepository, SplashFile } from '../games/game-files.repository';
import type { GamesRepository } from '../games/games.repository';
import { PreviewsService } from '../previews/previews.service';
import type { PlayOrigins } from './play-origins';
import type { PlayClaims, PlayTokens, PlayView } from './play-tokens';

/** A link is handed out again while it has at least this long to live (play tokens live limits.playTokenHours). */
const reuseForMs = 60 * 60_000;
/** Links kept for reuse; the oldest go first. */
const reusedLinks = 20_000;

/**
 * Builds the play URLs that the path calls answer (DESIGN.md "Play"). A link (one user, token version, game or
 * version, and view) is signed once and handed out again for the first hour of its two: the same URL
 * each time, so browsers cache what a game loads, and a list of cards costs no signature per card.
 */
export class PlayPathsService {
  private readonly links = new Map<string, { token: string; reuseUntil: number }>();

  constructor(
    private readonly games: GamesRepository,
    private readonly gameFiles: GameFilesRepository,
    private readonly tokens: PlayTokens,
    private readonly origins: PlayOrigins,
    /** The user's current token version, which each play link carries (decision 0013). */
    private readonly tokenVersionOf: (userId: number) => Promise<number>,
    /** The card images' preview URLs. */
    private readonly previews: PreviewsService,
  ) {}

  /**
   * The root of a play link for the user, on the game's play origin: one game (or version) and one view, with
   * the user's token version (read once by callers that make many links).
   */
  private async root(
    user: User,
    claims: Omit<PlayClaims, 'u' | 'tv'>,
    tokenVersion?: number,
  ): Promise<string> {
    const tv = tokenVersion ?? (await this.tokenVersionOf(user.id));
    const key = `${user.id}:${tv}:${claims.g}:${claims.v ?? ''}:${claims.view}`;
    // Only admins' version views show composed sheets on the original (decision 0049).
    const originals = claims.view === 'version' && can(user.roleTypeId, 'play.original');
    let link = this.links.get(key);
    if (!link || link.reuseUntil < Date.now()) {
      // The claims are put together only for a new signature (a reused link, most cards of a list, needs none).
      const full: PlayClaims = { ...claims, ...(originals && { o: true }), u: user.id, tv };
      link = {
        token: await this.tokens.sign(full),
        reuseUntil: Date.now() + limits.playTokenHours * 3600_000 - reuseForMs,
      };
      this.links.delete(key);
      this.links.set(key, link);
      if (this.links.size > reusedLinks) this.links.delete(this.links.keys().next().value!);
    }
    return `${this.origins.of(claims.g)}/p/${link.token}/`;
  }

  /**
   * GET /games/{id}/path/: administrators get the original; anyone else needs an active assignment of the
   * game and gets the watermarked view in its place (only admins ever receive unwatermarked originals).
   */
  async gamePaths(user: User, gameId: number): Promise<GamePath> {
    // Someone else's (or an unassigned) game is a 404, like an unknown one.
    if (!(await maySeeGame(this.games, user, gameId))) throw notFound('Game');
    const { index, isolated } = await this.playableIndex(user, gameId);
    const main: PlayView = can(user.roleTypeId, 'play.original') ? 'original' : 'watermark';
    const url = async (view: PlayView) => `${await this.root(user, { g: gameId, view })}${encodePath(index)}`;
    const mainUrl = await url(main);
    return {
      rootPath: mainUrl.slice(0, mainUrl.length - encodePath(index).length),
      orjFile: mainUrl,
      emtFile: await url('skeleton'),
      wtmFile: mainUrl,
      isolated,
    };
  }

  /**
   * GET /game-versions/path/{id}/{gameId}: orjFile is the user's version (their replacements, else the
   * watermarked view), emtFile the skeleton, wtmFile the watermarked view (the original for admins).
   */
  async versionPaths(user: User, version: GameVersion): Promise<GamePath> {
    const { index, isolated } = await this.playableIndex(user, version.gameId);
    const url = async (view: PlayView, versionId?: number) =>
      `${await this.root(user, { g: version.gameId, view, ...(versionId ? { v: versionId } : {}) })}${encodePath(index)}`;
    const own = await url('version', version.id);
    return {
      rootPath: own.slice(0, own.length - encodePath(index).length),
      orjFile: own,
      emtFile: await url('skeleton'),
      wtmFile: await url(can(user.roleTypeId, 'play.original') ? 'original' : 'watermark'),
      isolated,
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
   * The card images of several games (GET /user-games/my-games; decision 0038), each given with its splash
   * file (the caller's list query reads them): each splash's preview on the app's own origin (watermarked unless the
   * user is an admin), one token-version read for them all; an SVG splash (no previews) on the play origin as before.
   * Null when the game has no splash or is not generated.
   */
  async imageUrls(
    user: User,
    games: { game: Pick<Game, 'id' | 'imagePath' | 'gameStatusTypeId'>; splash: SplashFile | undefined }[],
  ): Promise<(string | null)[]> {
    if (!games.some(({ game }) => game.imagePath && isGameReady(game))) return games.map(() => null);
    const tokenVersion = await this.tokenVersionOf(user.id);
    const url = this.previews.urlsAt(user, tokenVersion);
    // Made in one pass without a promise per card (an async step per card was most of this call's time); only a
    // card without a preview (an SVG splash) waits for its play link.
    const links: Promise<void>[] = [];
    const urls = games.map(({ game, splash }, i): string | null => {
      if (!game.imagePath || !isGameReady(game)) return null;
      const source = splash ? PreviewsService.previewSource(user, splash) : null;
      if (source !== null) return url(source, 'preview');
      const view: PlayView = can(user.roleTypeId, 'play.original') ? 'original' : 'watermark';
      const imagePath = encodePath(game.imagePath);
      links.push(
        this.root(user, { g: game.id, view }, tokenVersion).then((root) => void (urls[i] = root + imagePath)),
      );
      return null;
    });
    if (links.length > 0) await Promise.all(links);
    return urls;
  }

  /**
   * The index path of a Ready game, and whether it is served cross-origin isolated (its play screens must be too).
   * A game not Ready yet is a 409 in the caller's words: an admin reads to generate it, an artist that it is being
   * prepared.
   */
  private async playableIndex(user: User, gameId: number): Promise<{ index: string; isolated: boolean }> {
    const game = await this.games.findById(gameId);
    if (!game) throw notFound('Game');
    if (!isGameReady(game))
      throw conflict(gameNotReadyMessage(user.roleTypeId, game), errorCodes.gameNotReady);
    // The index alone, not the file list: a play screen waits for this answer before its frame starts.
    const index = await this.gameFiles.startFilePath(gameId);
    if (index === undefined) throw conflict('The game has no index file.', errorCodes.noIndexFile);
    return { index, isolated: effectiveIsolated(game) };
  }
}

/** A game path as a URL path: each segment percent-encoded, the slashes kept. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
