// Play Your Version in Chromium ("Must show"): from the click on a version's Play to the first frame a Unity-like
// WebGL build of about 5 MB draws in the play frame, against the same build served by a bare Node static server
// with gzip (nginx is not installed here) in the same sandboxed, cross-site frame of a page that sets the frame's
// address at the click. First visit (a fresh context: cold cache) and second visit (back, then Play again).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { GameVersion } from '@reskin/contract';
import { startProcess, stop } from './api.bench';
import { artistPassword, loginOver, preparedServer } from './browser-support';
import { launchChromium, median, pageFailure, signedInPage } from './browser-measures';
import { firstFrameMessage, unityLikeBuild } from './unity-like-build';

export type PlayFrameTarget = 'app' | 'bare';

export interface PlayFrameVisit {
  /** The click (its event's time) to the game's message that its first WebGL frame is on screen. */
  firstFrameMs: number;
  /** The click to the frame element in the page (what the app's page waits for before it sets its address). */
  frameStartMs: number;
  /** Answers of the game's host during the visit (a revalidation included), redirects among them. */
  requests: number;
  redirects: number;
  /** Redirects the browser kept from an earlier visit (the X-Request-Id of an answer seen before): no request. */
  keptRedirects: number;
  /** Bytes of the bodies the game's host sent (0 for a revalidated file). */
  bodyMb: number;
}

export interface PlayFrameRun {
  first: PlayFrameVisit;
  second: PlayFrameVisit;
}

export interface PlayFrameResult {
  buildMb: number;
  rounds: number;
  /** Medians of each figure over the rounds. */
  app: PlayFrameRun;
  bare: PlayFrameRun;
  /** Medians of each round's app / bare first-frame times. */
  firstRatio: number;
  secondRatio: number;
  perRound: { first: number; second: number; load: number }[];
}

/** Records the click, the frame's insertion and the game's first-frame message on the page's own clock. */
const recorder = `
  window.__playFrame = { click: 0, frame: 0, drawn: 0 };
  if (!window.__playFrameListening) {
    window.__playFrameListening = true;
    addEventListener('message', (event) => {
      if (event.data === ${JSON.stringify(firstFrameMessage)} && !window.__playFrame.drawn) window.__playFrame.drawn = performance.now();
    });
    document.addEventListener('click', (event) => { if (!window.__playFrame.click) window.__playFrame.click = event.timeStamp; }, true);
    new MutationObserver(() => {
      if (!window.__playFrame.frame && document.querySelector('iframe')) window.__playFrame.frame = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  }
`;

/** Requests of a page (its frames' too) in flight, to wait until it is quiet. */
class InFlight {
  private count = 0;
  private lastChange = Date.now();

  constructor(page: Page) {
    page.on('request', () => this.change(1));
    page.on('requestfinished', () => this.change(-1));
    page.on('requestfailed', () => this.change(-1));
  }

  private change(by: number): void {
    this.count += by;
    this.lastChange = Date.now();
  }

  /** Resolves once no request has been in flight for `quietMs`: what a person reads before a click. */
  async quiet(quietMs = 500, timeoutMs = 60_000): Promise<void> {
    const started = Date.now();
    while (this.count > 0 || Date.now() - this.lastChange < quietMs) {
      if (Date.now() - started > timeoutMs) throw new Error(`${this.count} requests still in flight`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

interface Visitor {
  /** Opens the page with the Play control in a fresh context. */
  open: () => Promise<{ context: BrowserContext; page: Page; inFlight: InFlight }>;
  play: (page: Page) => Promise<void>;
  back: (page: Page) => Promise<void>;
  /** The game's host, whose answers are counted. */
  gameHost: (url: URL) => boolean;
}

async function visit(
  page: Page,
  inFlight: InFlight,
  visitor: Visitor,
  seenIds: Set<string>,
): Promise<PlayFrameVisit> {
  const answers: Response[] = [];
  const record = (response: Response) => {
    if (visitor.gameHost(new URL(response.url()))) answers.push(response);
  };
  await inFlight.quiet();
  page.on('response', record);
  try {
    await page.evaluate(recorder);
    await visitor.play(page);
    // A string evaluated by the DevTools protocol (the app's CSP forbids waitForFunction's eval in the page).
    const times = await page.evaluate<{ click: number; frame: number; drawn: number }>(`
      new Promise((resolve, reject) => {
        const started = performance.now();
        const check = () => {
          if (window.__playFrame.drawn > 0) resolve(window.__playFrame);
          else if (performance.now() - started > 120000) reject(new Error('no first frame'));
          else setTimeout(check, 20);
        };
        check();
      })`);
    const sizes = await Promise.all(answers.map((answer) => answer.request().sizes()));
    const redirects = answers.filter((answer) => answer.status() >= 300 && answer.status() < 400);
    const redirectIds = await Promise.all(redirects.map((answer) => answer.headerValue('x-request-id')));
    const keptRedirects = redirectIds.filter((id) => id !== null && seenIds.has(id)).length;
    for (const answer of answers) {
      const id = await answer.headerValue('x-request-id');
      if (id !== null) seenIds.add(id);
    }
    return {
      firstFrameMs: times.drawn - times.click,
      frameStartMs: times.frame - times.click,
      requests: answers.length,
      redirects: redirects.length,
      keptRedirects,
      bodyMb: sizes.reduce((sum, size) => sum + size.responseBodySize, 0) / 1024 / 1024,
    };
  } finally {
    page.off('response', record);
  }
}

/** A fresh context: the first visit (cold cache), back to the Play control, then the second visit. */
async function measure(visitor: Visitor, name: string): Promise<PlayFrameRun> {
  const { context, page, inFlight } = await visitor.open();
  try {
    const seenIds = new Set<string>();
    const first = await visit(page, inFlight, visitor, seenIds);
    // What the game and the page still load after the first frame settles before the way back.
    await inFlight.quiet();
    await visitor.back(page);
    const second = await visit(page, inFlight, visitor, seenIds);
    return { first, second };
  } catch (error) {
    throw await pageFailure(page, `play-frame-${name}`, error);
  } finally {
    await context.close();
  }
}

const medianVisit = (visits: PlayFrameVisit[]): PlayFrameVisit => ({
  firstFrameMs: median(visits.map((v) => v.firstFrameMs)),
  frameStartMs: median(visits.map((v) => v.frameStartMs)),
  requests: median(visits.map((v) => v.requests)),
  redirects: median(visits.map((v) => v.redirects)),
  keptRedirects: median(visits.map((v) => v.keptRedirects)),
  bodyMb: median(visits.map((v) => v.bodyMb)),
});

/**
 * Prepares the game through the real app (the build uploaded and generated, an artist assigned with a version of
 * it), starts the production server and the bare static server on the same files, then measures each in a fresh
 * Chromium context per round, the order alternating; one round of each first, not counted (the servers' first
 * reads and compressions, Chromium's first renderer).
 */
export async function benchPlayFrame(
  rounds = Number(process.env.BENCH_PLAY_FRAME_ROUNDS ?? 5),
): Promise<PlayFrameResult> {
  const build = unityLikeBuild();
  const buildMb = build.reduce((sum, file) => sum + file.content.length, 0) / 1024 / 1024;
  const artist = { email: 'pfartist0@example.com' };
  const { server, prepared } = await preparedServer(false, async (preparation) => {
    const game = await preparation.uploadedGame('Unity-like', build, 'index.html');
    await preparation.generate([game.id]);
    const [created] = await preparation.createArtists(1, 'pfartist');
    if (!created) throw new Error('the artist was not created');
    const token = await preparation.login(artist.email, artistPassword);
    const userGame = await preparation.assign(created.id, game.id);
    const version: GameVersion = await preparation.createVersion(token, userGame, 'My look');
    return { userGameId: userGame.id, version };
  });
  const folder = mkdtempSync(join(tmpdir(), 'reskin-bench-play-frame-'));
  for (const file of build) {
    mkdirSync(dirname(join(folder, file.path)), { recursive: true });
    writeFileSync(join(folder, file.path), file.content);
  }
  const bare = await startProcess(
    ['bench/bare-static-server.mjs', folder],
    { PATH: process.env.PATH ?? '' },
    /"port"/,
  );
  const barePort = (JSON.parse(bare.line) as { port: number }).port;
  const browser = await launchChromium();
  try {
    const token = await loginOver(server.origin, artist.email, artistPassword);
    const { version, userGameId } = prepared;
    const appVisitor: Visitor = {
      open: async () => {
        const { context, page } = await signedInPage(browser, server.origin, token);
        const inFlight = new InFlight(page);
        await page.goto(`/my-games/versions?userGameId=${userGameId}`);
        await page.getByRole('link', { name: 'Play', exact: true }).waitFor();
        return { context, page, inFlight };
      },
      play: (page) => page.getByRole('link', { name: 'Play', exact: true }).click(),
      back: async (page) => {
        await page.getByRole('link', { name: 'Back', exact: true }).click();
        await page.getByRole('link', { name: 'Play', exact: true }).waitFor();
      },
      gameHost: (url) => url.hostname.endsWith('.localhost'),
    };
    const bareVisitor: Visitor = {
      open: async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        const inFlight = new InFlight(page);
        const frame = `http://g${version.gameId}.localhost:${barePort}/build/index.html`;
        await page.goto(`http://127.0.0.1:${barePort}/?frame=${encodeURIComponent(frame)}`);
        return { context, page, inFlight };
      },
      play: (page) => page.getByRole('button', { name: 'Play' }).click(),
      back: (page) => page.getByRole('button', { name: 'Back' }).click(),
      gameHost: (url) => url.hostname.endsWith('.localhost'),
    };
    const visitors = { app: appVisitor, bare: bareVisitor };
    await measure(appVisitor, 'app');
    await measure(bareVisitor, 'bare');
    const runs: Record<PlayFrameTarget, PlayFrameRun[]> = { app: [], bare: [] };
    const perRound: PlayFrameResult['perRound'] = [];
    for (let round = 0; round < rounds; round++) {
      const order: PlayFrameTarget[] = round % 2 === 0 ? ['app', 'bare'] : ['bare', 'app'];
      const done: Partial<Record<PlayFrameTarget, PlayFrameRun>> = {};
      for (const target of order) done[target] = await measure(visitors[target], target);
      runs.app.push(done.app!);
      runs.bare.push(done.bare!);
      const ratios = {
        first: done.app!.first.firstFrameMs / done.bare!.first.firstFrameMs,
        second: done.app!.second.firstFrameMs / done.bare!.second.firstFrameMs,
        load: loadavg()[0]!,
      };
      perRound.push(ratios);
      console.log(
        `  (round ${round + 1}: first visit app ${done.app!.first.firstFrameMs.toFixed(0)} ms, bare ${done.bare!.first.firstFrameMs.toFixed(0)} ms;` +
          ` second app ${done.app!.second.firstFrameMs.toFixed(0)} ms, bare ${done.bare!.second.firstFrameMs.toFixed(0)} ms; load ${ratios.load.toFixed(2)})`,
      );
    }
    const medianRun = (list: PlayFrameRun[]): PlayFrameRun => ({
      first: medianVisit(list.map((run) => run.first)),
      second: medianVisit(list.map((run) => run.second)),
    });
    return {
      buildMb,
      rounds,
      app: medianRun(runs.app),
      bare: medianRun(runs.bare),
      firstRatio: median(perRound.map((round) => round.first)),
      secondRatio: median(perRound.map((round) => round.second)),
      perRound,
    };
  } finally {
    await browser.close();
    await stop(bare.child);
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
