import type { Kysely, Selectable } from 'kysely';
import type { UserGame } from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database, UserGamesTable } from '../../db/schema';
import type { CompiledFilter, SearchableEntity } from '../../search/filter';

/** The user-game columns a search query may name (POST /user-games/filter); `user` and `game` may be included. */
export const searchableUserGame: SearchableEntity = {
  table: 'userGames',
  columns: {
    id: 'number',
    userId: 'number',
    gameId: 'number',
    userGameTypeId: 'number',
    jobPrice: 'number',
    isActive: 'boolean',
    createdAt: 'date',
    updatedAt: 'date',
  },
};
export const userGameRelations = ['user', 'game'] as const;

type Row = Selectable<UserGamesTable>;

function toUserGame(row: Row): UserGame {
  return { ...row, isActive: row.isActive === 1, createdAt: toIso(row.createdAt), updatedAt: toIso(row.updatedAt) };
}

export class UserGamesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(filter: CompiledFilter): Promise<UserGame[]> {
    let query = this.db.selectFrom('userGames').selectAll('userGames');
    if (filter.where) query = query.where(filter.where);
    for (const term of filter.order) query = query.orderBy(`userGames.${term.column}` as 'userGames.id', term.direction);
    const rows = await query.orderBy('userGames.id').limit(filter.limit).offset(filter.offset).execute();
    const userGames = rows.map(toUserGame);
    if (filter.include.includes('user')) await this.attachUsers(userGames);
    if (filter.include.includes('game')) await this.attachGames(userGames);
    return userGames;
  }

  /** The active assignments of one user, with their games (My Games). */
  async listActiveOfUser(userId: number): Promise<UserGame[]> {
    const rows = await this.db
      .selectFrom('userGames')
      .selectAll()
      .where('userId', '=', userId)
      .where('isActive', '=', 1)
      .orderBy('id')
      .execute();
    const userGames = rows.map(toUserGame);
    await this.attachGames(userGames);
    return userGames;
  }

  async findById(id: number): Promise<UserGame | undefined> {
    const row = await this.db.selectFrom('userGames').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const userGame = toUserGame(row);
    await this.attachUsers([userGame]);
    await this.attachGames([userGame]);
    return userGame;
  }

  async insert(values: { userId: number; gameId: number; userGameTypeId: number; jobPrice: number }): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('userGames')
      .values({ ...values, isActive: 1, createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, patch: { userGameTypeId?: number; jobPrice?: number; isActive?: boolean }): Promise<boolean> {
    const { isActive, ...rest } = patch;
    const result = await this.db
      .updateTable('userGames')
      .set({ ...rest, ...(isActive !== undefined ? { isActive: isActive ? 1 : 0 } : {}), updatedAt: nowIso() })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async userExists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async gameExists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('games').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  private async attachUsers(userGames: UserGame[]): Promise<void> {
    const ids = [...new Set(userGames.map((ug) => ug.userId))];
    if (ids.length === 0) return;
    const users = await this.db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
    const byId = new Map(users.map((user) => [user.id, user]));
    for (const ug of userGames) {
      const user = byId.get(ug.userId);
      if (user) ug.user = user;
    }
  }

  private async attachGames(userGames: UserGame[]): Promise<void> {
    const ids = [...new Set(userGames.map((ug) => ug.gameId))];
    if (ids.length === 0) return;
    const games = await this.db
      .selectFrom('games')
      .select(['id', 'name', 'description', 'width', 'height', 'imagePath', 'gameStatusTypeId'])
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(games.map((game) => [game.id, game]));
    for (const ug of userGames) {
      const game = byId.get(ug.gameId);
      if (game) ug.game = game;
    }
  }
}
