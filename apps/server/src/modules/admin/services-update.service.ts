import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { GameStatus, fileKindOf } from '@reskin/contract';
import { toIso } from '../../db/database';
import type { Database } from '../../db/schema';
import { variantKey } from '../../lib/variants';
import type { Storage } from '../../storage/storage';
import type { GameGeneration } from '../games/game-generation';
import { orphanGraceMs, withVariants } from '../stored-files/stored-files.service';

/**
 * GET /admin/update, "Services update" (DESIGN.md "Games, files, variants"): re-generates every Ready game
 * whose files changed since its last generation (or whose generated copies are missing), and removes stored
 * files that no record points to and writes that a crash cut off, once they are an hour old.
 */
export class ServicesUpdateService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: Storage,
    private readonly generation: GameGeneration,
    private readonly log: FastifyBaseLogger,
  ) {}

  async run(): Promise<{ regeneratedGameIds: number[]; removedStoredFiles: number }> {
    const before = new Date(Date.now() - orphanGraceMs);
    // The objects first, the records after: an upload records its files before they are an hour old
    // (uploadRecordDeadlineMs), so an old object listed here is recorded by the time the records are read, or never.
    const stored = new Set<string>();
    const old: string[] = [];
    for await (const { key, lastModified } of this.storage.list()) {
      stored.add(key);
      if (lastModified < before) old.push(key);
    }
    const referenced = await this.referencedKeys();
    // In batches on an object store (S3's DeleteObjects takes 1000 keys a call).
    const orphans = old.filter((key) => !referenced.has(key));
    await this.storage.deleteMany(orphans);
    let removedStoredFiles = orphans.length;
    removedStoredFiles += await this.storage.removeAbandonedWrites(before);
    const regeneratedGameIds: number[] = [];
    for (const gameId of await this.staleReadyGames(stored)) {
      if ((await this.generation.start(gameId)).started) regeneratedGameIds.push(gameId);
    }
    this.log.info({ regeneratedGameIds, removedStoredFiles }, 'services update');
    return { regeneratedGameIds, removedStoredFiles };
  }

  /** Every storage key a record points to, with the copies generation may have made of game files. */
  private async referencedKeys(): Promise<Set<string>> {
    const keys = new Set<string>();
    for (const file of await this.db.selectFrom('gameFiles').select('storageKey').execute()) {
      for (const key of withVariants(file.storageKey)) keys.add(key);
    }
    for (const table of ['helperFiles', 'versionFiles'] as const) {
      for (const row of await this.db.selectFrom(table).select('storageKey').execute()) keys.add(row.storageKey);
    }
    return keys;
  }

  /** Ready games with a file changed after their generation, or an image whose copies are not stored. */
  private async staleReadyGames(stored: Set<string>): Promise<number[]> {
    const games = await this.db
      .selectFrom('games')
      .select(['id', 'generatedAt'])
      .where('gameStatusTypeId', '=', GameStatus.Ready)
      .execute();
    const stale: number[] = [];
    for (const game of games) {
      const files = await this.db
        .selectFrom('gameFiles')
        .select(['path', 'width', 'storageKey', 'updatedAt'])
        .where('gameId', '=', game.id)
        .execute();
      const generatedAt = game.generatedAt ? toIso(game.generatedAt) : '';
      const changed = files.some((file) => toIso(file.updatedAt) > generatedAt);
      const missing = files.some(
        (file) =>
          fileKindOf(file) === 'image' &&
          (!stored.has(variantKey(file.storageKey, 'skeleton')) || !stored.has(variantKey(file.storageKey, 'watermark'))),
      );
      if (changed || missing) stale.push(game.id);
    }
    return stale;
  }
}
