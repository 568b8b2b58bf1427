import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database';
import type { Database } from '../../db/schema';
import { variantKey } from '../../lib/images/copy-keys';

/** A row whose delete takes stored files with it (through the cascades of the schema). */
export type FileOwner =
  | { kind: 'game'; id: number }
  | { kind: 'userGame'; id: number }
  | { kind: 'user'; id: number }
  | { kind: 'version'; id: number };

/** The storage keys of the rows a delete removed: game files (which have generated copies) and the rest. */
export interface OwnedKeys {
  gameFiles: string[];
  others: string[];
}

const ownerTables = { game: 'games', userGame: 'userGames', user: 'users', version: 'gameVersions' } as const;

/** Deletes of the rows whose cascades take stored files with them. */
export class StoredFilesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Deletes a game, user-game, user or version in one transaction and answers the storage keys of every row
   * its cascade removed, or undefined when there was no such row. The owner row and the versions the cascade
   * takes are locked first (PostgreSQL; SQLite runs one write transaction at a time), so an upload recording
   * into them (it locks the same game or version row) either commits before and its keys are listed here, or
   * waits and then finds them gone. `before` runs first in the transaction (the last-admin check of a user's
   * delete); what it throws rolls everything back.
   */
  async deleteOwner(
    owner: FileOwner,
    before?: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<OwnedKeys | undefined> {
    return this.db.transaction().execute(async (trx) => {
      // A check of the caller's in the same transaction, before anything is locked or deleted (it may throw).
      await before?.(trx);
      const table = ownerTables[owner.kind];
      if (
        !(await this.lock(trx.selectFrom(table).select('id').where('id', '=', owner.id)).executeTakeFirst())
      )
        return undefined;
      const versionIds = (
        await this.lock(
          this.versionsOf(trx, owner).select('gameVersions.id').orderBy('gameVersions.id'),
        ).execute()
      ).map((row) => row.id);
      const others: string[] = [];
      if (versionIds.length > 0) {
        const rows = await trx
          .selectFrom('versionFiles')
          .select('storageKey')
          .where('gameVersionId', 'in', versionIds)
          .execute();
        others.push(...rows.map((row) => row.storageKey));
        // A version's replaced atlas frames and the whole-sheet uploads they are drawn onto.
        const frames = await trx
          .selectFrom('versionFrames')
          .select('storageKey')
          .where('gameVersionId', 'in', versionIds)
          .execute();
        // And the sheets' marked renditions (decision 0049).
        const sheets = await trx
          .selectFrom('versionSheets')
          .select(['baseKey', 'markedKey'])
          .where('gameVersionId', 'in', versionIds)
          .execute();
        others.push(
          ...frames.map((row) => row.storageKey),
          ...sheets.flatMap((row) => [row.baseKey, row.markedKey].filter((key) => key !== null)),
        );
        // The history of the versions' files (decision 0034): copies of their own.
        const history = await trx
          .selectFrom('versionFileHistory')
          .select('storageKey')
          .where('versionId', 'in', versionIds)
          .execute();
        others.push(...history.map((row) => row.storageKey));
      }
      let gameFiles: string[] = [];
      if (owner.kind === 'game') {
        const files = await trx
          .selectFrom('gameFiles')
          .select(['storageKey', 'copiesKey'])
          .where('gameId', '=', owner.id)
          .execute();
        gameFiles = files.map((row) => row.storageKey);
        // Copies named after another key (made again, or of a previous content: decision 0046).
        for (const { storageKey, copiesKey } of files) {
          if (copiesKey !== null && copiesKey !== storageKey)
            others.push(variantKey(copiesKey, 'skeleton'), variantKey(copiesKey, 'watermark'));
        }
        const helpers = await trx
          .selectFrom('helperFiles')
          .select('storageKey')
          .where('gameId', '=', owner.id)
          .execute();
        others.push(...helpers.map((row) => row.storageKey));
      }
      await trx.deleteFrom(table).where('id', '=', owner.id).execute();
      return { gameFiles, others };
    });
  }

  /** The versions a delete of `owner` takes with it. */
  private versionsOf(trx: Transaction<Database>, owner: FileOwner) {
    const versions = trx.selectFrom('gameVersions');
    switch (owner.kind) {
      case 'game':
        return versions.where('gameId', '=', owner.id);
      case 'userGame':
        return versions.where('userGamesId', '=', owner.id);
      case 'user':
        return versions.where((eb) =>
          eb.or([
            eb('userId', '=', owner.id),
            eb(
              'userGamesId',
              'in',
              eb.selectFrom('userGames').select('userGames.id').where('userGames.userId', '=', owner.id),
            ),
          ]),
        );
      case 'version':
        return versions.where('id', '=', owner.id);
    }
  }

  /** `for update` on PostgreSQL; SQLite has no row locks and needs none. */
  private lock<Q extends { forUpdate(): Q }>(query: Q): Q {
    return this.dialect === 'postgres' ? query.forUpdate() : query;
  }
}
