import { can, type FilePageQuery, type FileUsage, type User } from '@reskin/contract';
import { forbidden, notFound } from '../../lib/errors';
import { maySeeGame } from '../games/game-access';
import type { GamesRepository } from '../games/games.repository';
import type { FileUsageRepository } from './file-usage.repository';

/** GET /games/{id}/usage (decision 0023). */
export class FileUsageService {
  constructor(
    private readonly usage: FileUsageRepository,
    private readonly games: GamesRepository,
  ) {}

  /**
   * Which files of a game plays load: for an administrator any game's, for an artist (a role that changes
   * versions) a game actively assigned to them; a demo account is refused before the game is looked up (403),
   * and someone else's or an unknown game is a 404 (decision 0007). In pages of `page` (decision 0063).
   */
  async forGame(user: User, gameId: number, page: FilePageQuery = {}): Promise<FileUsage[]> {
    if (!can(user.roleTypeId, 'games.seeAll') && !can(user.roleTypeId, 'versions.change')) {
      throw forbidden("Only administrators and the game's artists see which files plays load.");
    }
    if (!(await maySeeGame(this.games, user, gameId)) || !(await this.games.findById(gameId)))
      throw notFound('Game');
    return (await this.usage.forGame(gameId, page)).map(({ startLoads, ...row }) => ({
      ...row,
      atStart: startLoads > 0,
    }));
  }
}
