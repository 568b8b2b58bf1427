// Opening the workbench of a big game as the user feels it (decision 0063): the JSON the page has parsed before its
// first card image is painted, and what opening it again downloads (revalidated answers: 304).
import { loadavg } from 'node:os';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { loginOver, workbenchArtist, workbenchGames, workbenchPath } from './browser-support';
import { NetworkLog, launchChromium, median, pageFailure, signedInPage, usableMs } from './browser-measures';

/** The workbench's card images (image-editor.tsx: a card per image, with a data-file-id). */
const cardImage = '[data-file-id] img';

/** One visit's API answers, on the page's clock. */
export interface OpenVisit {
  /** Navigation to the first card image loaded and painted (ms). */
  firstImageMs: number;
  /** Decoded JSON bytes of the API answers that had arrived by then (the page parses each as it arrives). */
  parsedBeforePaintBytes: number;
  /** Decoded JSON bytes of every API answer until the page was quiet. */
  parsedBytes: number;
  apiAnswers: number;
  /** API answers that came as 304 Not Modified (revalidated: the browser's copy used). */
  notModified: number;
  /** Bytes on the wire of the API answers (headers included), previews not counted. */
  wireBytes: number;
}

export interface WorkbenchOpenResult {
  images: number;
  prepareSeconds: number;
  rounds: number;
  /** A fresh browser (cold cache). */
  cold: OpenVisit;
  /** The same browser opening the workbench again. */
  reopened: OpenVisit;
  /** Each big list's answers on reopening, by list, as status codes (the last round's). */
  reopenedLists: Record<string, number[]>;
}

/** The big lists a workbench reads (decision 0063), by a part of their path. */
export const workbenchLists = {
  'game files': /^\/api\/games\/\d+\/files$/,
  usage: /^\/api\/games\/\d+\/usage$/,
  'version files': /^\/api\/game-versions\/files\/\d+\/\d+$/,
  notes: /^\/api\/game-versions\/\d+\/notes$/,
};

/** The page's fetches to /api/ (Resource Timing: decoded body sizes and arrival on the page's clock). */
const apiFetches = `performance.getEntriesByType('resource')
  .filter((entry) => entry.initiatorType === 'fetch' && new URL(entry.name).pathname.startsWith('/api/'))
  .map((entry) => ({ url: entry.name, end: entry.responseEnd, decoded: entry.decodedBodySize }))`;

const isApiAnswer = (url: string) => {
  const path = new URL(url).pathname;
  return path.startsWith('/api/') && !path.startsWith('/api/previews/');
};

/**
 * The status each API request got from the server, by URL path: the DevTools protocol's raw status
 * (responseReceivedExtraInfo), since the page and Playwright see a revalidated answer as the 200 it confirms.
 */
class ServerStatuses {
  private readonly urls = new Map<string, string>();
  private readonly statuses = new Map<string, number>();
  private constructor(private readonly session: CDPSession) {}

  static async attach(context: BrowserContext, page: Page): Promise<ServerStatuses> {
    const session = await context.newCDPSession(page);
    const log = new ServerStatuses(session);
    await session.send('Network.enable');
    session.on('Network.requestWillBeSent', (event) => {
      if (isApiAnswer(event.request.url)) log.urls.set(event.requestId, new URL(event.request.url).pathname);
    });
    session.on('Network.responseReceivedExtraInfo', (event) =>
      log.statuses.set(event.requestId, event.statusCode),
    );
    return log;
  }

  /** The API requests answered since the last clear, as [path, status]. */
  answers(): [string, number][] {
    return [...this.urls].flatMap(([id, path]) => {
      const status = this.statuses.get(id);
      return status === undefined ? [] : [[path, status] as [string, number]];
    });
  }

  clear(): void {
    this.urls.clear();
    this.statuses.clear();
  }

  async detach(): Promise<void> {
    await this.session.detach().catch(() => undefined);
  }
}

async function visit(
  page: Page,
  network: NetworkLog,
  server: ServerStatuses,
  path: string,
): Promise<OpenVisit> {
  network.clear();
  server.clear();
  await page.goto(path, { waitUntil: 'commit' });
  const { firstImageMs } = await usableMs(page, cardImage);
  await network.idle();
  const fetches = await page.evaluate<{ url: string; end: number; decoded: number }[]>(apiFetches);
  const statuses = server.answers().map(([, status]) => status);
  return {
    firstImageMs,
    parsedBeforePaintBytes: fetches
      .filter((entry) => entry.end <= firstImageMs)
      .reduce((sum, entry) => sum + entry.decoded, 0),
    parsedBytes: fetches.reduce((sum, entry) => sum + entry.decoded, 0),
    apiAnswers: statuses.length,
    notModified: statuses.filter((status) => status === 304).length,
    wireBytes: network.bytes((request) => isApiAnswer(request.url)),
  };
}

/** Each big list's server statuses among `answers`, by list. */
function listStatuses(answers: [string, number][]): Record<string, number[]> {
  const lists: Record<string, number[]> = {};
  for (const [path, status] of answers) {
    const name = Object.entries(workbenchLists).find(([, pattern]) => pattern.test(path))?.[0];
    if (name) (lists[name] ??= []).push(status);
  }
  return lists;
}

/** Each visit field's median over the rounds. */
const medianVisit = (visits: OpenVisit[]): OpenVisit =>
  Object.fromEntries(
    (Object.keys(visits[0]!) as (keyof OpenVisit)[]).map((key) => [key, median(visits.map((v) => v[key]))]),
  ) as unknown as OpenVisit;

/**
 * Prepares the workbench benches' data (browser-support.ts workbenchGames), then per round opens the big game's
 * workbench in a fresh Chromium context (cold cache) and, in the same context, opens it again.
 */
export async function benchWorkbenchOpen(
  count = Number(process.env.BENCH_WORKBENCH_IMAGES ?? 1500),
  rounds = Number(process.env.BENCH_WORKBENCH_OPEN_ROUNDS ?? 3),
): Promise<WorkbenchOpenResult> {
  const started = performance.now();
  const { server, bigVersion } = await workbenchGames(count);
  const prepareSeconds = (performance.now() - started) / 1000;
  const browser: Browser = await launchChromium();
  try {
    const token = await loginOver(server.origin, workbenchArtist.email, workbenchArtist.password);
    const path = workbenchPath(bigVersion);
    const cold: OpenVisit[] = [];
    const reopened: OpenVisit[] = [];
    let reopenedLists: Record<string, number[]> = {};
    // A warm-up round, not counted (Chromium's first renderer, the server's first answers of the big game).
    for (let round = -1; round < rounds; round++) {
      const { context, page } = await signedInPage(browser, server.origin, token);
      // Resource Timing keeps 250 entries by default; the previews alone are more.
      await context.addInitScript('performance.setResourceTimingBufferSize(100000)');
      const network = await NetworkLog.attach(context, page);
      const statuses = await ServerStatuses.attach(context, page);
      try {
        const first = await visit(page, network, statuses, path);
        const again = await visit(page, network, statuses, path);
        if (round >= 0) {
          cold.push(first);
          reopened.push(again);
          reopenedLists = listStatuses(statuses.answers());
          console.log(
            `  (round ${round + 1}: ${(first.parsedBeforePaintBytes / 1024).toFixed(0)} KB parsed before the first image of ${(first.parsedBytes / 1024).toFixed(0)} KB;` +
              ` reopened ${again.notModified} of ${again.apiAnswers} answers 304, ${(again.wireBytes / 1024).toFixed(0)} KB on the wire; load ${loadavg()[0]!.toFixed(2)})`,
          );
        }
      } catch (error) {
        throw await pageFailure(page, 'workbench-open', error);
      } finally {
        await statuses.detach();
        await network.detach();
        await context.close();
      }
    }
    return {
      images: count,
      prepareSeconds,
      rounds,
      cold: medianVisit(cold),
      reopened: medianVisit(reopened),
      reopenedLists,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
