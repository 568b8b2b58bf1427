/** The placeholder in PLAY_ORIGIN that makes one origin per game (decision 0017). */
export const gamePlaceholder = '{game}';

/**
 * Why a PLAY_ORIGIN cannot be used, or undefined when it can: an http(s) origin with no path, and at most one
 * `{game}`, inside the first label of its host (`https://g{game}.play.example-games.com`).
 */
export function playOriginProblem(template: string): string | undefined {
  const count = template.split(gamePlaceholder).length - 1;
  if (count > 1) return `expected ${gamePlaceholder} at most once`;
  let url: URL;
  try {
    url = new URL(template.replace(gamePlaceholder, '1'));
  } catch {
    return 'expected a URL such as https://play.example-games.com or https://g{game}.play.example-games.com';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'expected an http:// or https:// URL';
  if (url.pathname !== '/' || url.search || url.hash || url.username)
    return 'expected an origin only (scheme, host and port), without a path';
  if (count === 1) {
    const host = template.split('://')[1] ?? '';
    const firstLabel = host.split('.')[0] ?? '';
    if (!firstLabel.includes(gamePlaceholder) || !host.includes('.')) {
      return `expected ${gamePlaceholder} in the first label of a host with a domain under it, such as g${gamePlaceholder}.play.example-games.com`;
    }
  }
  return undefined;
}

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
