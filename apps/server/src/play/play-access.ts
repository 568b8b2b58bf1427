import type { GamesRepository } from '../modules/games/games.repository';
import type { UsersRepository } from '../modules/users/users.repository';
import { can } from '@reskin/contract';
import type { LRUCache } from 'lru-cache';
import { keptFor } from '../lib/kept-answers';
import { maySeeGame } from '../modules/games/game-access';
import type { PlayClaims } from '../modules/play-paths/play-tokens';

/**
 * Whether a play link still gives access (decision 0013): its user still exists, is active and has the
 * token version the link was made with (a password change, reset, role change or suspension ends it), still has
 * the role its view needs, and, unless an administrator, still has an active assignment of the game. Answers are
 * kept for `cacheMs` (PLAY_ACCESS_CACHE_SECONDS, a few seconds at most; keptFor), so a
 * game loading hundreds of files asks the database once; a revoked link stops working within that time on the
 * other servers, and at once on the server that made the change, which forgets the user's answers (forgetUser). At most 10,000 are kept, the least recently used going first. 0 keeps nothing.
 */
export class PlayAccess {
  private readonly answers: LRUCache<string, boolean> | undefined;

  constructor(
    private readonly users: UsersRepository,
    private readonly games: GamesRepository,
    cacheMs: number,
  ) {
    this.answers = keptFor(cacheMs, 10_000);
  }

  async allows(claims: PlayClaims): Promise<boolean> {
    const key = `${claims.u}:${claims.tv}:${claims.g}:${claims.view}:${claims.o ? 'o' : ''}`;
    const cached = this.answers?.get(key);
    if (cached !== undefined) return cached;

    const allowed = await this.check(claims);
    this.answers?.set(key, allowed);
    return allowed;
  }

  /**
   * Forgets every kept answer about this user (any token version, game and view): called by this server's own
   * changes to the user or their assignments, so their links are checked anew at their next request.
   */
  forgetUser(userId: number): void {
    if (!this.answers) return;
    const prefix = `${userId}:`;
    for (const key of [...this.answers.keys()]) if (key.startsWith(prefix)) this.answers.delete(key);
  }

  private async check({ u, tv, g, view, o }: PlayClaims): Promise<boolean> {
    const found = await this.users.findWithTokenVersion(u);
    if (!found || !found.user.activated || found.tokenVersion !== tv) return false;
    if ((view === 'original' || o) && !can(found.user.roleTypeId, 'play.original')) return false;
    return maySeeGame(this.games, found.user, g);
  }
}
