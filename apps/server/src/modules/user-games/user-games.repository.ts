import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import { GameVersionStatus, type UserGame, type Verdict } from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database, Timestamp, UserGamesTable } from '../../db/schema';
import type { CompiledFilter, ComputedColumn, SearchableEntity } from '../../search/filter';
import { listPage, type Page } from '../../search/page';
import { compiledOnce } from '../../db/compiled-once';
import type { SplashFile } from '../games/game-files.repository';

/** An aggregate over the versions (all, or the Finished ones) of the user-game row being read. */
function ofVersions(aggregate: RawBuilder<unknown>, finishedOnly: boolean): RawBuilder<unknown> {
  const finished = finishedOnly
    ? sql` and ${sql.ref('gameVersions.gameVersionStatusId')} = ${sql.lit(GameVersionStatus.Finished)}`
    : sql``;
  return sql`(select ${aggregate} from ${sql.table('gameVersions')} where ${sql.ref('gameVersions.userGamesId')} = ${sql.ref('userGames.id')}${finished})`;
}

/**
 * The open first notes on the assignment's versions (`and`: a further condition on them). The versions are named
 * in a list, so the database looks each one's open notes up in `notes_open_index` rather than walking every open
 * note of the database (decision 0054).
 */
function openNotesOf(and: RawBuilder<unknown> = sql``) {
  return sql`(select count(*) from ${sql.table('notes')} where ${sql.ref('notes.versionId')} in (select ${sql.ref('gameVersions.id')} from ${sql.table('gameVersions')} where ${sql.ref('gameVersions.userGamesId')} = ${sql.ref('userGames.id')}) and ${sql.ref('notes.replyTo')} is null and ${sql.ref('notes.resolvedAt')} is null${and})`;
}

/**
 * What a user-game row carries beside its own columns, each an SQL expression the database works out for the
 * rows it reads (one query, not one per row; gameVersions is indexed by userGamesId): the review loop's version
 * counts and newest finish time, and the names an admin searches by.
 */
const userGameComputed = {
  versionCount: { type: 'number', expression: ofVersions(sql`count(*)`, false) },
  finishedCount: { type: 'number', expression: ofVersions(sql`count(*)`, true) },
  lastFinishedAt: {
    type: 'date',
    expression: ofVersions(sql`max(${sql.ref('gameVersions.finishedAt')})`, true),
  },
  // Finished versions without a verdict (a finish clears the previous one), open notes on all its
  // versions, and the newest verdict with its time.
  toReviewCount: {
    type: 'number',
    expression: ofVersions(sql`count(*) - count(${sql.ref('gameVersions.verdict')})`, true),
  },
  openNotes: {
    type: 'number',
    expression: openNotesOf(),
  },
  lastVerdict: {
    type: 'string',
    expression: sql`(select ${sql.ref('gameVersions.verdict')} from ${sql.table('gameVersions')} where ${sql.ref('gameVersions.userGamesId')} = ${sql.ref('userGames.id')} and ${sql.ref('gameVersions.verdict')} is not null order by ${sql.ref('gameVersions.verdictAt')} desc, ${sql.ref('gameVersions.id')} desc limit 1)`,
  },
  lastVerdictAt: {
    type: 'date',
    expression: ofVersions(sql`max(${sql.ref('gameVersions.verdictAt')})`, true),
  },
  username: {
    type: 'string',
    expression: sql`(select ${sql.ref('users.username')} from ${sql.table('users')} where ${sql.ref('users.id')} = ${sql.ref('userGames.userId')})`,
  },
  gameName: {
    type: 'string',
    expression: sql`(select ${sql.ref('games.name')} from ${sql.table('games')} where ${sql.ref('games.id')} = ${sql.ref('userGames.gameId')})`,
  },
} satisfies Record<string, ComputedColumn>;

/**
 * The user-game columns a search query may name (POST /user-games/filter), the computed ones included;
 * `user` and `game` may be included.
 */
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
  computed: userGameComputed,
};
export const userGameRelations = ['user', 'game'] as const;

type Row = Selectable<UserGamesTable> & {
  versionCount: number | string;
  finishedCount: number | string;
  lastFinishedAt: Timestamp | null;
  toReviewCount: number | string;
  openNotes: number | string;
  lastVerdict: string | null;
  lastVerdictAt: Timestamp | null;
  username: string | null;
  gameName: string | null;
};

/**
 * Each field named (no `...row`): the driver's rows are dictionary-mode objects, which a spread or a rest
 * destructuring copies slowly (about a tenth of My Games' CPU per request).
 */
function toUserGame(row: Row): UserGame {
  return {
    id: row.id,
    userId: row.userId,
    gameId: row.gameId,
    userGameTypeId: row.userGameTypeId,
    jobPrice: row.jobPrice,
    isActive: row.isActive === 1,
    // Counts are numbers on both databases (PostgreSQL's bigint is parsed as one, db/database.ts); Number() also
    // covers a driver that answers text.
    versionCount: Number(row.versionCount),
    finishedCount: Number(row.finishedCount),
    lastFinishedAt: row.lastFinishedAt === null ? null : toIso(row.lastFinishedAt),
    toReviewCount: Number(row.toReviewCount),
    openNotes: Number(row.openNotes),
    lastVerdict: row.lastVerdict as Verdict | null,
    lastVerdictAt: row.lastVerdictAt === null ? null : toIso(row.lastVerdictAt),
    // Never null: a user-game goes with its user and game (foreign keys with cascade).
    username: row.username ?? '',
    gameName: row.gameName ?? '',
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** User-games with their columns and the computed ones (every read of a user-game goes through this). */
export function selectUserGames(db: Kysely<Database>) {
  return db
    .selectFrom('userGames')
    .selectAll('userGames')
    .select(Object.entries(userGameComputed).map(([name, column]) => column.expression.as(name)))
    .$castTo<Row>();
}

/** My Games' query (a user's active assignments with their games), built and compiled once: every artist's visit runs it. */
function activeOfUserQuery(db: Kysely<Database>) {
  return compiledOnce(db, (userId: number) => myGamesQuery(db, userId));
}

/** My Games' query itself (its plan is read by test/query-plans.test.ts). */
export function myGamesQuery(db: Kysely<Database>, userId: number) {
  return (
    selectUserGames(db)
      .innerJoin('games', 'games.id', 'userGames.gameId')
      // Of the open notes, the threads the artist started (their questions): My Games does not count them (decision 0052).
      .select(
        openNotesOf(sql` and ${sql.ref('notes.authorId')} = ${sql.ref('userGames.userId')}`).as(
          'openQuestions',
        ),
      )
      .select([
        'games.name as game_name',
        'games.description as game_description',
        'games.width as game_width',
        'games.height as game_height',
        'games.imagePath as game_imagePath',
        'games.gameStatusTypeId as game_gameStatusTypeId',
        'games.engine as game_engine',
      ])
      // The card's picture is a preview of the splash file: read here, not in a query of its own.
      .leftJoin('gameFiles as splash', (join) =>
        join.onRef('splash.gameId', '=', 'games.id').onRef('splash.path', '=', 'games.imagePath'),
      )
      .select([
        'splash.path as splash_path',
        'splash.width as splash_width',
        'splash.storageKey as splash_storageKey',
        'splash.copiesKey as splash_copiesKey',
      ])
      .where('userGames.userId', '=', userId)
      .where('userGames.isActive', '=', 1)
      .orderBy('userGames.id')
  );
}

/** A user-game read with its game (My Games), and its artist's own open questions (decision 0052). */
type UserGameWithGame = UserGame & { game: NonNullable<UserGame['game']>; openQuestions: number };

export class UserGamesRepository {
  private readonly activeOfUser: ReturnType<typeof activeOfUserQuery>;

  constructor(private readonly db: Kysely<Database>) {
    this.activeOfUser = activeOfUserQuery(db);
  }

  private select() {
    return selectUserGames(this.db);
  }

  async list(filter: CompiledFilter): Promise<Page<UserGame>> {
    const page = await listPage(this.select(), filter);
    const userGames = page.rows.map(toUserGame);
    if (filter.include.includes('user')) await this.attachUsers(userGames);
    if (filter.include.includes('game')) await this.attachGames(userGames);
    return { rows: userGames, total: page.total };
  }

  /**
   * The active assignments of one user, with their games and each game's splash file when it has one (My Games), in
   * one query (one round trip; the splash too).
   */
  async listActiveOfUser(
    userId: number,
  ): Promise<{ userGame: UserGameWithGame; splash: SplashFile | undefined }[]> {
    const rows = await this.activeOfUser(userId);
    return rows.map((row) => {
      const userGame = toUserGame(row) as UserGameWithGame;
      userGame.openQuestions = Number(row.openQuestions);
      userGame.game = {
        id: row.gameId,
        name: row.game_name,
        description: row.game_description,
        width: row.game_width,
        height: row.game_height,
        imagePath: row.game_imagePath,
        gameStatusTypeId: row.game_gameStatusTypeId,
        engine: row.game_engine,
      };
      const splash =
        row.splash_path === null
          ? undefined
          : {
              path: row.splash_path,
              width: row.splash_width,
              storageKey: row.splash_storageKey!,
              copiesKey: row.splash_copiesKey,
            };
      return { userGame, splash };
    });
  }

  async findById(id: number): Promise<UserGame | undefined> {
    const row = await this.select().where('userGames.id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const userGame = toUserGame(row);
    await this.attachUsers([userGame]);
    await this.attachGames([userGame]);
    return userGame;
  }

  /**
   * Inserts an assignment, and what `also` writes (its inbox event) in the same transaction; answers the
   * new id and what `also` answered.
   */
  async insert(
    values: { userId: number; gameId: number; userGameTypeId: number; jobPrice: number },
    also: (trx: Transaction<Database>, id: number) => Promise<number[]> = async () => [],
  ): Promise<{ id: number; events: number[] }> {
    return this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const row = await trx
        .insertInto('userGames')
        .values({ ...values, isActive: 1, createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, events: await also(trx, row.id) };
    });
  }

  async update(
    id: number,
    patch: { userGameTypeId?: number; jobPrice?: number; isActive?: boolean },
  ): Promise<boolean> {
    const { isActive, ...rest } = patch;
    const result = await this.db
      .updateTable('userGames')
      .set({
        ...rest,
        ...(isActive !== undefined ? { isActive: isActive ? 1 : 0 } : {}),
        updatedAt: nowIso(),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The assignment of this game to this user with this job type, active or not (another than `exceptId`). */
  async findAssignment(
    assignment: { userId: number; gameId: number; userGameTypeId: number },
    exceptId?: number,
  ): Promise<{ id: number; isActive: boolean } | undefined> {
    let query = this.db
      .selectFrom('userGames')
      .select(['id', 'isActive'])
      .where('userId', '=', assignment.userId)
      .where('gameId', '=', assignment.gameId)
      .where('userGameTypeId', '=', assignment.userGameTypeId);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    const row = await query.orderBy('isActive', 'desc').executeTakeFirst();
    return row && { id: row.id, isActive: row.isActive === 1 };
  }

  async userExists(id: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
    );
  }

  async gameExists(id: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('games').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
    );
  }

  private async attachUsers(userGames: UserGame[]): Promise<void> {
    const ids = [...new Set(userGames.map((ug) => ug.userId))];
    if (ids.length === 0) return;
    const users = await this.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', 'in', ids)
      .execute();
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
      .select(['id', 'name', 'description', 'width', 'height', 'imagePath', 'gameStatusTypeId', 'engine'])
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(games.map((game) => [game.id, game]));
    for (const ug of userGames) {
      const game = byId.get(ug.gameId);
      if (game) ug.game = game;
    }
  }
}
