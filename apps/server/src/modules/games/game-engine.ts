import type { FastifyBaseLogger } from 'fastify';
import { readPrefix } from '../../storage/read-prefix';
import type { Storage } from '../../storage/storage';
import { detectEngine, type EngineInputFile } from './engine-detection';
import type { GameDetectionRepository } from './game-detection.repository';

/** How often a recompute starts over when the files changed while it read them, before it leaves it to that change. */
const attempts = 3;

/**
 * Keeps each game's `engine` in step with its files: after every change to them (an upload, a
 * zip, a delete) the engine is recognised again from all the game's files and recorded, unless they changed
 * once more meanwhile (that change then records its own). Detection reads only names and bounded heads
 * (engine-detection.ts); it never fails the change that triggered it: a read that fails counts as a file
 * without a signature, and anything else leaves the engine as it was, with a warning in the log.
 */
export class GameEngines {
  constructor(
    private readonly detection: GameDetectionRepository,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
  ) {}

  async recompute(gameId: number): Promise<void> {
    try {
      for (let attempt = 0; attempt < attempts; attempt += 1) {
        const inputs = await this.detection.engineInputs(gameId);
        if (!inputs) return;
        const stored = new Map(inputs.files.map((file) => [file.path, file]));
        const files: EngineInputFile[] = inputs.files.map(({ path, size }) => ({ path, size }));
        const engine = await detectEngine(files, async (file, length) => {
          const found = stored.get(file.path);
          return found && readPrefix(this.storage, found.storageKey, length, found.size);
        });
        if (await this.detection.recordEngine(gameId, engine, inputs.filesChangedAt)) return;
      }
    } catch (error) {
      this.log.warn({ err: error, gameId }, "the game's engine could not be recognised; it stays as it was");
    }
  }
}
