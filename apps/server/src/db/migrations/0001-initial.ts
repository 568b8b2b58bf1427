import { sql, type ColumnDefinitionBuilder, type Kysely, type CreateTableBuilder } from 'kysely';

/** The whole data model of SPEC §3: users, games, game files, helper files, user-games, versions, version files. */
export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const timestamp = dialect === 'postgres' ? 'timestamptz' : 'text';
  const now = dialect === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

  /** `id` as an auto-incrementing primary key. */
  function withId(table: CreateTableBuilder<string, never>): CreateTableBuilder<string, 'id'> {
    return dialect === 'postgres'
      ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  }
  const bit = (value: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(value);
  const stamp = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(now);

  await withId(db.schema.createTable('users'))
    .addColumn('username', 'varchar(100)', (c) => c.notNull())
    .addColumn('email', 'varchar(100)', (c) => c.notNull())
    .addColumn('passwordHash', 'varchar(255)', (c) => c.notNull())
    .addColumn('firstName', 'varchar(100)', (c) => c.notNull())
    .addColumn('lastName', 'varchar(100)', (c) => c.notNull())
    .addColumn('phone', 'varchar(20)', (c) => c.notNull())
    .addColumn('roleTypeId', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('activated', 'smallint', bit(1))
    .addColumn('emailVerified', 'smallint', bit(0))
    .addColumn('dataProtectionRegulationVersion', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('createdAt', timestamp, stamp)
    .addColumn('updatedAt', timestamp, stamp)
    .addUniqueConstraint('users_email_unique', ['email'])
    .addUniqueConstraint('users_username_unique', ['username'])
    .execute();

  await withId(db.schema.createTable('games'))
    .addColumn('name', 'varchar(250)', (c) => c.notNull())
    .addColumn('description', 'varchar(2000)', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('gameStatusTypeId', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('statusReason', 'varchar(2000)')
    .addColumn('isActive', 'smallint', bit(1))
    .addColumn('imagePath', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('rootPath', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('filesChangedAt', timestamp)
    .addColumn('generatedAt', timestamp)
    .addColumn('createdAt', timestamp, stamp)
    .addColumn('updatedAt', timestamp, stamp)
    .execute();
  await db.schema.createIndex('games_name_index').on('games').column('name').execute();

  await withId(db.schema.createTable('gameFiles'))
    .addColumn('gameId', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('path', 'varchar(1000)', (c) => c.notNull())
    .addColumn('isStartFile', 'smallint', bit(0))
    .addColumn('isSplash', 'smallint', bit(0))
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('contentType', 'varchar(200)', (c) => c.notNull())
    .addColumn('storageKey', 'varchar(1000)', (c) => c.notNull())
    .addColumn('createdAt', timestamp, stamp)
    .addColumn('updatedAt', timestamp, stamp)
    .addUniqueConstraint('gameFiles_game_path_unique', ['gameId', 'path'])
    .addUniqueConstraint('gameFiles_game_fileId_unique', ['gameId', 'fileId'])
    .execute();

  await withId(db.schema.createTable('helperFiles'))
    .addColumn('gameId', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('path', 'varchar(1000)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('contentType', 'varchar(200)', (c) => c.notNull())
    .addColumn('storageKey', 'varchar(1000)', (c) => c.notNull())
    .addColumn('createdAt', timestamp, stamp)
    .addUniqueConstraint('helperFiles_game_path_unique', ['gameId', 'path'])
    .execute();

  await withId(db.schema.createTable('userGames'))
    .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('gameId', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('userGameTypeId', 'integer', (c) => c.notNull())
    .addColumn('jobPrice', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('isActive', 'smallint', bit(1))
    .addColumn('createdAt', timestamp, stamp)
    .addColumn('updatedAt', timestamp, stamp)
    .execute();
  await db.schema
    .createIndex('userGames_user_index')
    .on('userGames')
    .columns(['userId', 'isActive'])
    .execute();
  await db.schema.createIndex('userGames_game_index').on('userGames').column('gameId').execute();

  await withId(db.schema.createTable('gameVersions'))
    .addColumn('name', 'varchar(250)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    .addColumn('gameId', 'integer', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('userGamesId', 'integer', (c) => c.notNull().references('userGames.id').onDelete('cascade'))
    .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('isLocked', 'smallint', bit(0))
    .addColumn('isActive', 'smallint', bit(1))
    .addColumn('gameVersionStatusId', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('finishedAt', timestamp)
    .addColumn('rootPath', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('createdAt', timestamp, stamp)
    .addColumn('updatedAt', timestamp, stamp)
    .execute();
  await db.schema
    .createIndex('gameVersions_userGame_index')
    .on('gameVersions')
    .column('userGamesId')
    .execute();
  await db.schema
    .createIndex('gameVersions_user_game_index')
    .on('gameVersions')
    .columns(['userId', 'gameId'])
    .execute();

  await withId(db.schema.createTable('versionFiles'))
    .addColumn('gameVersionId', 'integer', (c) =>
      c.notNull().references('gameVersions.id').onDelete('cascade'),
    )
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('path', 'varchar(1000)', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('contentType', 'varchar(200)', (c) => c.notNull())
    .addColumn('storageKey', 'varchar(1000)', (c) => c.notNull())
    .addColumn('createdAt', timestamp, stamp)
    .addColumn('updatedAt', timestamp, stamp)
    .addUniqueConstraint('versionFiles_version_fileId_unique', ['gameVersionId', 'fileId'])
    .execute();
}
