import type { GamesRepository } from '../modules/games/games.repository';
import type { UsersRepository } from '../modules/users/users.repository';
import { can } from '@reskin/contract';
import { maySeeGame } from '../modules/games/game-access';
import type { PlayClaims } from './play-tokens';


/**
 * Whether a play link still gives access (issue 13, decision 0013): its user still exists, is active and has the
 * token version the link was made with (a password change, reset, role change or suspension ends it), still has
 * the role its view needs, and, unless an administrator, still has an active assignment of the game. Answers are
 * kept for `cacheMs` (PLAY_ACCESS_CACHE_SECONDS, a few seconds at most), so a game loading hundreds of files asks
 * the database once; a revoked link stops working within that time. 0 keeps nothing.
 */
export class PlayAccess {
  private readonly answers = new Map<string, { allowed: boolean; until: number }>();

  constructor(
    private readonly users: UsersRepository,
    private readonly games: GamesRepository,
    private readonly cacheMs: number,
  ) {}

  async allows(claims: PlayClaims): Promise<boolean> {
    const key = `${claims.u}:${claims.tv}:${claims.g}:${claims.view}`;
    const now = Date.now();
    const cached = this.answers.get(key);
    if (cached && cached.until > now) return cached.allowed;

    const allowed = await this.check(claims);
    if (this.cacheMs > 0) {
      // Expired answers go all at once when the map grows large; they would be asked again anyway.
      if (this.answers.size >= 10_000) this.answers.clear();
      this.answers.set(key, { allowed, until: now + this.cacheMs });
    }
    return allowed;
  }

  private async check({ u, tv, g, view }: PlayClaims): Promise<boolean> {
    const found = await this.users.findWithTokenVersion(u);
    if (!found || !found.user.activated || found.tokenVersion !== tv) return false;
    if (view === 'original' && !can(found.user.roleTypeId, 'play.original')) return false;
    return maySeeGame(this.games, found.user, g);
  }
}
