// The workbench of a big game in Chromium ("Must show"): a generated game of 1,500 PNG/JPEG images against
// the 7-image sample game (Star Catcher, the demo seed's), each opened by an artist on a version of it; the big
// version carries a studio's 2,000 notes (studio-version.ts).
import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import type { GameFile, GameVersion } from '@reskin/contract';
import { artistPassword, cachedArt, loginOver, preparedServer } from './browser-support';
import { launchChromium, median, medianRun } from './browser-measures';
import { visitScreen, type ScreenRun } from './screen-visit';
import type { ScrollProfile } from './scroll-profile';
import { bigGameSpecs, seedStudioNotes, sheetDescriptors, sheetsOfGame } from './studio-version';

/** The workbench's card images (image-editor.tsx: a card per image, with a data-file-id; the tab panel holds them). */
const cardImage = '[role="tabpanel"] img, [data-file-id] img';

export type WorkbenchRun = ScreenRun;

export interface WorkbenchResult {
  images: number;
  megabytes: number;
  prepareSeconds: number;
  rounds: number;
  big: WorkbenchRun;
  sample: WorkbenchRun;
  /** Median of each round's big usable / sample usable. */
  usableRatio: number;
  /** Notes on the big version, answers included. */
  notes: number;
  /** One more scroll of the big workbench under a Chromium trace (not counted in the figures). */
  profile: ScrollProfile;
}

const workbenchUrl = (version: GameVersion) =>
  `/my-games/versions/workbench?versionId=${version.id}&gameId=${version.gameId}&userGameId=${version.userGamesId}&tab=files`;

const measure = async (
  browser: Browser,
  origin: string,
  token: string,
  version: GameVersion,
  profile = false,
) => visitScreen(browser, origin, token, workbenchUrl(version), cardImage, 'workbench', profile);

/**
 * Prepares the data through the real app (the big game uploaded and generated, Star Catcher seeded, an artist with a
 * version of each, the big one with a studio's notes), starts the production server on it, then opens each workbench in a fresh Chromium context
 * (cold cache) per round, the games' order alternating, and scrolls it to the end.
 */
export async function benchWorkbench(
  count = Number(process.env.BENCH_WORKBENCH_IMAGES ?? 1500),
  rounds = Number(process.env.BENCH_WORKBENCH_ROUNDS ?? 3),
  notes = Number(process.env.BENCH_WORKBENCH_NOTES ?? 2000),
): Promise<WorkbenchResult> {
  const drawStarted = performance.now();
  const specs = bigGameSpecs(count);
  const art = await cachedArt('workbench-v1', specs);
  const megabytes = art.reduce((sum, image) => sum + image.content.length, 0) / 1024 / 1024;
  const artist = { email: 'wbartist0@example.com' };
  const { server, prepared } = await preparedServer(true, async (preparation) => {
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
    const sample = await preparation.gameNamed('Star Catcher');
    const [created] = await preparation.createArtists(1, 'wbartist');
    if (!created) throw new Error('the artist was not created');
    const artistId = created.id;
    const token = await preparation.login(artist.email, artistPassword);
    const bigVersion = await preparation.createVersion(
      token,
      await preparation.assign(artistId, big.id),
      'Big look',
    );
    const imagePaths = new Set(art.map((image) => image.path));
    await seedStudioNotes(preparation, {
      versionId: bigVersion.id,
      fileIds: gameFiles.filter((file) => imagePaths.has(file.path)).map((file) => file.fileId),
      sheets: sheetsOfGame(specs, gameFiles),
      reviewerId: await preparation.adminId(),
      artistId,
      count: notes,
    });
    const sampleVersion = await preparation.createVersion(
      token,
      await preparation.assign(artistId, sample.id),
      'Sample look',
    );
    return { bigVersion, sampleVersion };
  });
  const prepareSeconds = (performance.now() - drawStarted) / 1000;
  const browser = await launchChromium();
  try {
    const token = await loginOver(server.origin, artist.email, artistPassword);
    // A warm-up of each, not counted (Chromium's own first start of a renderer, the server's first reads).
    // Both games: the big one's first visit was the slowest of every run (usable 873-1,143 ms against 666-973 ms
    // after), the server answering its 1,500 files for the first time (their preview grants signed, the files'
    // writer compiled); counted, it made the first round's ratio 1.4-1.7.
    await measure(browser, server.origin, token, prepared.sampleVersion);
    await measure(browser, server.origin, token, prepared.bigVersion);
    const big: WorkbenchRun[] = [];
    const sample: WorkbenchRun[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['big', 'sample'] as const) : (['sample', 'big'] as const);
      const runs: Partial<Record<'big' | 'sample', WorkbenchRun>> = {};
      for (const which of order)
        runs[which] = (
          await measure(
            browser,
            server.origin,
            token,
            which === 'big' ? prepared.bigVersion : prepared.sampleVersion,
          )
        ).run;
      big.push(runs.big!);
      sample.push(runs.sample!);
      ratios.push(runs.big!.usableMs / runs.sample!.usableMs);
      console.log(
        `  (round ${round + 1}: big usable ${runs.big!.usableMs.toFixed(0)} ms, sample ${runs.sample!.usableMs.toFixed(0)} ms; load ${loadavg()[0]!.toFixed(2)})`,
      );
    }
    const { profile } = await measure(browser, server.origin, token, prepared.bigVersion, true);
    return {
      notes,
      profile: profile!,
      images: count,
      megabytes,
      prepareSeconds,
      rounds,
      big: medianRun(big),
      sample: medianRun(sample),
      usableRatio: median(ratios),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
