import { gamePlaceholder } from '../../environment';

/**
 * Where games are played (DESIGN.md "Play", decision 0017): PLAY_ORIGIN, either one origin for all games
 * (`https://play.example-games.com`) or, with `{game}` in its host, one origin per game
 * (`http://g{game}.localhost:3001`, the default), so no game can read another game's storage. Either way the
 * play origin is a different site from the app, so no game can read or set the app's cookies.
 */
export class PlayOrigins {
  /** The origin with `{game}` left in: what GET /config tells the web app. */
  readonly template: string;
  /** Whether each game has an origin of its own. */
  readonly perGame: boolean;

  constructor(template: string) {
    this.template = template.replace(/\/$/, '');
    this.perGame = this.template.includes(gamePlaceholder);
  }

  /** The origin game `gameId` is served from. */
  of(gameId: number): string {
    return this.template.replace(gamePlaceholder, String(gameId));
  }

  /**
   * The app's Content-Security-Policy source for every play origin: the origin itself, or with per-game
   * origins the wildcard of the domain under them (`http://*.localhost:3001`).
   */
  get cspSource(): string {
    if (!this.perGame) return this.template;
    const [scheme, rest] = this.template.split('://') as [string, string];
    return `${scheme}://*.${rest.slice(rest.indexOf('.') + 1)}`;
  }

  /**
   * Whether a request with this Host header may be answered for game `gameId`: with per-game origins only
   * on the game's own host, so one game's page never runs on (and shares storage with) another game's origin.
   */
  servesGame(host: string | undefined, gameId: number): boolean {
    if (!this.perGame) return true;
    let own = this.hosts.get(gameId);
    if (own === undefined) {
      own = new URL(this.of(gameId)).host;
      if (this.hosts.size >= 10_000) this.hosts.clear();
      this.hosts.set(gameId, own);
    }
    return host === own || host?.toLowerCase() === own;
  }

  /** Each game's host, as a URL writes it (lower case, no default port): checked on every play request. */
  private readonly hosts = new Map<number, string>();
}
