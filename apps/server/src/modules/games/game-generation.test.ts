import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GameStatus, generationFailureMessage } from '@reskin/contract';
import type { Storage } from '../../storage/storage';
import { GameGeneration } from './game-generation';
import { InProcessGenerationJobs } from './generation-jobs';
import type { GameFilesRepository } from './game-files.repository';
import type { GenerationRepository } from './generation.repository';

type Outcome = { gameStatusTypeId: number; statusReason: string | null };

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
    syscall: 'connect',
  });

/**
 * A game without images and a database that is down for the first `failures` calls of `failing`: the job then
 * touches only these two repository calls, never storage.
 */
async function generationWithOutage(failing: 'listFiles' | 'finishGeneration', failures: number) {
  let calls = 0;
  const outage = <T>(work: () => T): Promise<T> =>
    calls++ < failures ? Promise.reject(refused()) : Promise.resolve(work());
  const recorded: Outcome[] = [];
  const games = {
    claimForGeneration: async () => true,
    failInterruptedGenerations: async () => [],
    generationState: async () => ({ gameStatusTypeId: GameStatus.Generating, generationDone: 0 }),
    recordProgress: async () => {},
    pendingCopies: async () => [],
    readyGamesWithPendingCopies: async () => [],
    listFiles: () => (failing === 'listFiles' ? outage(() => []) : Promise.resolve([])),
    finishGeneration: (_id: number, outcome: Outcome) =>
      failing === 'finishGeneration'
        ? outage(() => recorded.push(outcome) > 0)
        : Promise.resolve(recorded.push(outcome) > 0),
  };
  // Only the calls above are made (listFiles of the files, the rest of the generation's repository); the rest of
  // the repositories and storage stay unused.
  const log = pino({ level: 'silent' });
  const generation = new GameGeneration(
    games as unknown as GenerationRepository,
    games as unknown as GameFilesRepository,
    {} as Storage,
    'Reskin Studio',
    log,
  );
  await generation.open(new InProcessGenerationJobs(games as unknown as GenerationRepository, log));
  const told: { gameId: number; reason: string }[] = [];
  generation.onFailed(async (gameId, reason) => void told.push({ gameId, reason }));
  return { generation, recorded, told };
}

describe('game generation during a database outage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('records Ready once the database is back, so the game does not stay Generating', async () => {
    const { generation, recorded } = await generationWithOutage('finishGeneration', 3);
    await generation.start(1);
    await vi.runAllTimersAsync();
    await generation.idle();
    expect(recorded).toEqual([{ gameStatusTypeId: GameStatus.Ready, statusReason: null }]);
  });

  it('records Failed with a reason an admin understands when the database went away mid-job, and tells the admins once (decision 0052)', async () => {
    const { generation, recorded, told } = await generationWithOutage('listFiles', 1);
    await generation.start(1);
    await vi.runAllTimersAsync();
    await generation.idle();
    const reason = generationFailureMessage('database_unavailable');
    expect(reason).toMatch(/^The database could not be reached during generation\..*press Gen\. again\.$/);
    expect(recorded).toEqual([{ gameStatusTypeId: GameStatus.Failed, statusReason: reason }]);
    expect(told).toEqual([{ gameId: 1, reason }]);
  });

  it('ends the job, without an unhandled rejection, when the database stays away', async () => {
    // Vitest fails the run on any unhandled rejection; idle() rejects if the job itself does.
    const { generation, recorded, told } = await generationWithOutage(
      'finishGeneration',
      Number.POSITIVE_INFINITY,
    );
    await generation.start(1);
    await vi.runAllTimersAsync();
    await expect(generation.idle()).resolves.toBeUndefined();
    expect(recorded).toEqual([]);
    // Not recorded: nobody is told yet (the next Gen. or the services update ends it, and tells them then).
    expect(told).toEqual([]);
  });
});
