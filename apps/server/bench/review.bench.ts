// The review screen of a big version in Chromium: an admin reviews an artist's version of the 1,500-image game
// (workbench.bench.ts's) in which every image is replaced, with a studio's 2,000 notes and a verdict history
// (finished, changes requested, finished again), and scrolls its files to the end.
import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import type { GameFile, GameVersion } from '@reskin/contract';
import { artistPassword, benchAdmin, cachedArt, loginOver, preparedServer } from './browser-support';
import { launchChromium, medianRun } from './browser-measures';
import { visitScreen, type ScreenRun } from './screen-visit';
import type { ScrollProfile } from './scroll-profile';
import {
  bigGameSpecs,
  replaceEveryImage,
  seedStudioNotes,
  sheetDescriptors,
  sheetsOfGame,
} from './studio-version';

/** The version files' thumbnails (version-files.tsx: a row per file, with a data-file-id). */
const rowImage = '[data-file-id] img';

export interface ReviewResult {
  files: number;
  notes: number;
  prepareSeconds: number;
  rounds: number;
  run: ScreenRun;
  /** One more scroll under a Chromium trace (not counted in the figures). */
  profile: ScrollProfile;
}

const reviewUrl = (version: GameVersion) =>
  `/user-game-list/game-versions/files?versionId=${version.id}&gameId=${version.gameId}&userGameId=${version.userGamesId}`;

const measure = (browser: Browser, origin: string, token: string, version: GameVersion, profile = false) =>
  visitScreen(browser, origin, token, reviewUrl(version), rowImage, 'review', profile, '[data-file-id]');

/**
 * Prepares the data through the real app (the big game uploaded and generated; an artist's version of it with every
 * image replaced, six frames of each sprite sheet, the notes, and the verdicts), starts the production server on it,
 * then opens the review screen as the admin in a fresh Chromium context (cold cache) per round and scrolls it to the
 * end.
 */
export async function benchReview(
  count = Number(process.env.BENCH_REVIEW_IMAGES ?? 1500),
  rounds = Number(process.env.BENCH_REVIEW_ROUNDS ?? 3),
  notes = Number(process.env.BENCH_REVIEW_NOTES ?? 2000),
): Promise<ReviewResult> {
  const started = performance.now();
  const specs = bigGameSpecs(count);
  const art = await cachedArt('workbench-v1', specs);
  const artist = { email: 'rvartist0@example.com' };
  const { server, prepared } = await preparedServer(false, async (preparation) => {
    const files = [
      {
        path: 'big-game/index.html',
        content: Buffer.from('<!doctype html><title>Big game</title><canvas></canvas>'),
      },
      ...art,
      ...sheetDescriptors(specs),
    ];
    const big = await preparation.uploadedGame('Big game', files, 'big-game/index.html', art[0]!.path);
    await preparation.generate([big.id]);
    const gameFiles = await preparation.request<GameFile[]>('GET', `/games/${big.id}/files`);
    const [created] = await preparation.createArtists(1, 'rvartist');
    if (!created) throw new Error('the artist was not created');
    const token = await preparation.login(artist.email, artistPassword);
    const version = await preparation.createVersion(
      token,
      await preparation.assign(created.id, big.id),
      'Reviewed look',
    );
    const sheets = sheetsOfGame(specs, gameFiles);
    await replaceEveryImage(preparation, token, version, gameFiles, art, sheets);
    const imagePaths = new Set(art.map((image) => image.path));
    await seedStudioNotes(preparation, {
      versionId: version.id,
      fileIds: gameFiles.filter((file) => imagePaths.has(file.path)).map((file) => file.fileId),
      sheets,
      reviewerId: await preparation.adminId(),
      artistId: created.id,
      count: notes,
    });
    // A studio's round: finished, changes asked for, finished again (now waiting for the reviewer's verdict).
    await preparation.request('POST', '/game-versions/done', { token, payload: { id: version.id } });
    await preparation.request('PUT', `/game-versions/${version.id}/verdict`, {
      payload: {
        verdict: 'changes_requested',
        note: 'See the notes on the files: mostly outlines and colours.',
      },
    });
    await preparation.request('POST', '/game-versions/done', { token, payload: { id: version.id } });
    return { version };
  });
  const prepareSeconds = (performance.now() - started) / 1000;
  const browser = await launchChromium();
  try {
    const token = await loginOver(server.origin, benchAdmin.email, benchAdmin.password);
    // A warm-up, not counted (Chromium's first renderer, the server's first reads of the files and notes).
    await measure(browser, server.origin, token, prepared.version);
    const runs: ScreenRun[] = [];
    for (let round = 0; round < rounds; round++) {
      const { run } = await measure(browser, server.origin, token, prepared.version);
      runs.push(run);
      console.log(
        `  (round ${round + 1}: usable ${run.usableMs.toFixed(0)} ms, scroll ${run.fps.toFixed(1)} fps, p95 ${run.p95FrameMs.toFixed(1)} ms; load ${loadavg()[0]!.toFixed(2)})`,
      );
    }
    const { profile } = await measure(browser, server.origin, token, prepared.version, true);
    return { files: count, notes, prepareSeconds, rounds, run: medianRun(runs), profile: profile! };
  } finally {
    await browser.close();
    await server.stop();
  }
}
