import { type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  effectiveIsolated,
  effectivePrecompressed,
  isolatedSettings,
  precompressedModes,
  precompressedSettings,
  type Game,
  type IsolatedSetting,
  type PrecompressedMode,
  type PrecompressedSetting,
} from '@reskin/contract';
import { nowIso, toIso } from '../../db/database';
import type { Database, GamesTable } from '../../db/schema';
import type { CompiledFilter, SearchableEntity } from '../../search/filter';
import { listPage, type Page } from '../../search/page';
import { detectionColumns } from './game-detection.repository';
import type { PlayDetection } from './play-detection';

/** The game columns a search query may name (POST /games/filter). */
export const searchableGame: SearchableEntity = {
  table: 'games',
  columns: {
    id: 'number',
    name: 'string',
    description: 'string',
    width: 'number',
    height: 'number',
    gameStatusTypeId: 'number',
    isActive: 'boolean',
    // The list shows a generation's progress ("Generating 12/200").
    generationDone: 'number',
    generationTotal: 'number',
    engine: 'string',
    // The play settings: the list can tell which games are served isolated.
    precompressed: 'string',
    precompressedDecided: 'string',
    isolated: 'string',
    isolatedDecided: 'boolean',
    createdAt: 'date',
    updatedAt: 'date',
  },
};

const gameColumns = [
  'id',
  'name',
  'description',
  'width',
  'height',
  'gameStatusTypeId',
  'statusReason',
  'isActive',
  'imagePath',
  'rootPath',
  'generationDone',
  'generationTotal',
  'engine',
  'precompressed',
  'precompressedDecided',
  'precompressedReason',
  'isolated',
  'isolatedDecided',
  'isolatedReason',
  'createdAt',
  'updatedAt',
] as const;

type GameRow = Pick<Selectable<GamesTable>, (typeof gameColumns)[number]>;

/** A stored value of a closed set, or its fallback (a row written by hand with anything else). */
function oneOf<T extends string>(values: readonly T[], value: string, fallback: T): T {
  return (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

function toGame(row: GameRow): Game {
  return {
    ...row,
    isActive: row.isActive === 1,
    precompressed: oneOf(precompressedSettings, row.precompressed, 'auto'),
    precompressedDecided: oneOf(precompressedModes, row.precompressedDecided, 'encoded'),
    isolated: oneOf(isolatedSettings, row.isolated, 'auto'),
    isolatedDecided: row.isolatedDecided === 1,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

type Executor = Kysely<Database> | Transaction<Database>;

/** How many of a game's images have current copies, of its images in all (decision 0024). */
export interface CopiesProgress {
  copiesCurrent: number;
  copiesTotal: number;
}

/** A game with its copies' progress (a game without images has none to make: 0 of 0). */
function withCopies(game: Game, copies: CopiesProgress | undefined): Game {
  return { ...game, ...(copies ?? { copiesCurrent: 0, copiesTotal: 0 }) };
}

/** The game rows: the list, one game, its settings and the moment its files last changed. */
export class GamesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async list(filter: CompiledFilter): Promise<Page<Game>> {
    const page = await listPage(this.db.selectFrom('games').select(gameColumns), filter);
    const copies = await this.copiesProgress(page.rows.map((row) => row.id));
    return { ...page, rows: page.rows.map((row) => withCopies(toGame(row), copies.get(row.id))) };
  }

  async findById(id: number, db: Executor = this.db): Promise<Game | undefined> {
    const row = await db.selectFrom('games').select(gameColumns).where('id', '=', id).executeTakeFirst();
    return row && withCopies(toGame(row), (await this.copiesProgress([id], db)).get(id));
  }

  /**
   * Per game, its images whose copies are current (made from the file's content as it is now) and its images in
   * all (decision 0024): one aggregate query for a page of games. A game without images is left out.
   */
  async copiesProgress(gameIds: number[], db: Executor = this.db): Promise<Map<number, CopiesProgress>> {
    if (gameIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('gameFiles')
      .select((eb) => [
        'gameId',
        eb.fn.countAll<number>().as('total'),
        eb.fn
          .sum<number>(eb.case().when('copiesOf', '=', eb.ref('storageKey')).then(1).else(0).end())
          .as('current'),
      ])
      .where('gameId', 'in', gameIds)
      .where('width', 'is not', null)
      .groupBy('gameId')
      .execute();
    return new Map(
      rows.map((row) => [row.gameId, { copiesCurrent: Number(row.current), copiesTotal: Number(row.total) }]),
    );
  }

  /** A new Draft game, with what detection decides for a game without files. */
  async insert(
    game: { name: string; description: string; width: number; height: number },
    detection: PlayDetection,
  ): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('games')
      .values({
        ...game,
        ...detectionColumns(detection),
        gameStatusTypeId: 1,
        isActive: 1,
        imagePath: '',
        rootPath: '',
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(
    id: number,
    patch: Partial<{
      name: string;
      description: string;
      width: number;
      height: number;
      gameStatusTypeId: number;
      statusReason: string | null;
      isActive: boolean;
      imagePath: string;
      rootPath: string;
      generatedAt: string;
      precompressed: PrecompressedSetting;
      isolated: IsolatedSetting;
    }>,
    db: Executor = this.db,
  ): Promise<boolean> {
    const { isActive, ...rest } = patch;
    const result = await db
      .updateTable('games')
      .set({
        ...rest,
        ...(isActive !== undefined ? { isActive: isActive ? 1 : 0 } : {}),
        updatedAt: nowIso(),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records that a game's files changed (engine and play detection record against the moment). The status stays
   * (decision 0024): a Ready game stays Ready and playable while its changed files get their copies
   * from an incremental generation; a Draft or Failed one waits for Gen. False when the game does not exist. Inside a transaction this update also holds the game row's lock until the
   * commit (PostgreSQL; SQLite runs one writing transaction at a time), so callers make it their first write:
   * changes to one game's files then happen one after another, and every transaction takes the game row
   * before any file row (no deadlock between them).
   */
  async markFilesChanged(gameId: number, db: Executor = this.db): Promise<boolean> {
    const now = nowIso();
    const result = await db
      .updateTable('games')
      .set({ filesChangedAt: now, updatedAt: now })
      .where('id', '=', gameId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** How the play origin serves a game (decision 0022): its pre-compressed mode and isolation; undefined: no game. */
  async playSettings(
    id: number,
  ): Promise<{ precompressed: PrecompressedMode; isolated: boolean } | undefined> {
    const row = await this.db
      .selectFrom('games')
      .select(['precompressed', 'precompressedDecided', 'isolated', 'isolatedDecided'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const game = {
      precompressed: oneOf(precompressedSettings, row.precompressed, 'auto'),
      precompressedDecided: oneOf(precompressedModes, row.precompressedDecided, 'encoded'),
      isolated: oneOf(isolatedSettings, row.isolated, 'auto'),
      isolatedDecided: row.isolatedDecided === 1,
    };
    return { precompressed: effectivePrecompressed(game), isolated: effectiveIsolated(game) };
  }

  /** When the game's files last changed (null: never, or no such game); detection records against it. */
  async filesChangedAt(id: number, db: Executor = this.db): Promise<string | null | undefined> {
    const row = await db.selectFrom('games').select('filesChangedAt').where('id', '=', id).executeTakeFirst();
    return row && (row.filesChangedAt === null ? null : toIso(row.filesChangedAt));
  }

  /** Whether a user holds an active assignment (user-game) of a game. */
  async hasActiveAssignment(userId: number, gameId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('userGames')
      .select('id')
      .where('userId', '=', userId)
      .where('gameId', '=', gameId)
      .where('isActive', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
