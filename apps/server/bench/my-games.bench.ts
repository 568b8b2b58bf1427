// My Games of a busy artist in Chromium ("Must show"): 200 assigned Ready games, each with a 1280x720
// splash, against the same page with one card.
import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { artistPassword, cachedArt, loginOver, preparedServer } from './browser-support';
import { NetworkLog, launchChromium, median, medianRun, pageFailure, signedInPage } from './browser-measures';

export interface MyGamesRun {
  cards: number;
  /** Bytes on the wire of image requests until the network is quiet after load, before any scroll. */
  imageMb: number;
  imageRequests: number;
  /** The end of the last request after load (networkidle measured by events: no request for 500 ms), ms since navigation. */
  networkDoneMs: number;
  /** Requests to the app's /api/ for the page, its images (the previews under /api/previews/) not counted. */
  apiCalls: number;
  /** Distinct hosts the page's images came from. */
  imageHosts: number;
  totalMb: number;
}

export interface MyGamesResult {
  games: number;
  prepareSeconds: number;
  rounds: number;
  many: MyGamesRun;
  one: MyGamesRun;
  /** Median of each round's many / one network done. */
  networkDoneRatio: number;
}

async function measure(browser: Browser, origin: string, token: string): Promise<MyGamesRun> {
  const { context, page } = await signedInPage(browser, origin, token);
  const network = await NetworkLog.attach(context, page);
  try {
    await page.goto('/my-games', { waitUntil: 'commit' });
    await network.anchor(page);
    await page.waitForLoadState('load');
    await page.locator('[data-user-game-id]').first().waitFor();
    await network.idle();
    const images = network.list((request) => request.type === 'Image');
    const appHost = new URL(origin).host;
    return {
      cards: await page.locator('[data-user-game-id]').count(),
      imageMb: images.reduce((sum, request) => sum + request.bytes, 0) / 1024 / 1024,
      imageRequests: images.length,
      networkDoneMs: network.lastEndMs(),
      apiCalls: network.list((request) => {
        const url = new URL(request.url);
        return url.host === appHost && url.pathname.startsWith('/api/') && request.type !== 'Image';
      }).length,
      imageHosts: new Set(images.map((request) => new URL(request.url).host)).size,
      totalMb: network.bytes() / 1024 / 1024,
    };
  } catch (error) {
    throw await pageFailure(page, 'my-games', error);
  } finally {
    await network.detach();
    await context.close();
  }
}

/**
 * Prepares `games` Ready games through the real app (a 1280x720 JPEG splash each, drawn deterministically, generated
 * so artists see the watermarked copy), one artist assigned to all of them and one to the first only; then opens
 * My Games as each in a fresh Chromium context (cold cache) per round, the order alternating.
 */
export async function benchMyGames(
  games = Number(process.env.BENCH_MY_GAMES ?? 200),
  rounds = Number(process.env.BENCH_MY_GAMES_ROUNDS ?? 5),
): Promise<MyGamesResult> {
  const started = performance.now();
  const splashes = await cachedArt(
    'my-games-v1',
    Array.from({ length: games }, (_, i) => ({
      path: 'game/img/splash.jpg',
      seed: 1000 + i,
      width: 1280,
      height: 720,
      format: 'jpeg' as const,
    })),
  );
  const { server } = await preparedServer(false, async (preparation) => {
    const ids: number[] = [];
    for (let i = 0; i < games; i++) {
      const files = [
        {
          path: 'game/index.html',
          content: Buffer.from(`<!doctype html><title>Game ${i}</title><canvas></canvas>`),
        },
        splashes[i]!,
      ];
      ids.push(
        (
          await preparation.uploadedGame(
            `Card game ${String(i).padStart(3, '0')}`,
            files,
            'game/index.html',
            'game/img/splash.jpg',
          )
        ).id,
      );
    }
    await preparation.generate(ids);
    const [many, one] = await preparation.createArtists(2, 'mgartist');
    if (!many || !one) throw new Error('the artists were not created');
    for (const id of ids) await preparation.assign(many.id, id);
    await preparation.assign(one.id, ids[0]!);
  });
  const prepareSeconds = (performance.now() - started) / 1000;
  const browser = await launchChromium();
  try {
    const manyToken = await loginOver(server.origin, 'mgartist0@example.com', artistPassword);
    const oneToken = await loginOver(server.origin, 'mgartist1@example.com', artistPassword);
    await measure(browser, server.origin, oneToken);
    const many: MyGamesRun[] = [];
    const one: MyGamesRun[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const first = round % 2 === 0;
      const a = first ? await measure(browser, server.origin, manyToken) : undefined;
      const b = await measure(browser, server.origin, oneToken);
      const c = a ?? (await measure(browser, server.origin, manyToken));
      many.push(c);
      one.push(b);
      ratios.push(c.networkDoneMs / b.networkDoneMs);
    }
    console.log(`  (machine load at the end ${loadavg()[0]!.toFixed(2)})`);
    return {
      games,
      prepareSeconds,
      rounds,
      many: medianRun(many),
      one: medianRun(one),
      networkDoneRatio: median(ratios),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
