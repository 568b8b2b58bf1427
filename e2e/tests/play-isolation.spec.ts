import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { GameStatus, RoleType, storageKeys, type Game } from '@reskin/contract';
import { test, expect, fileByPath, markIndex, uploadFiles, waitForStatus, type Api } from '../fixtures/games';
import { gameFrame } from '../fixtures/play';
import { chromiumFlags } from '../chromium-flags';

/**
 * Decision 0017, on the default configuration: the app on localhost, each game on its own host under
 * localhost (g<id>.localhost on PLAY_PORT), so a game can neither read nor set any cookie of the app, and
 * cannot read another game's localStorage, while it keeps its own.
 *
 * Playwright's own launcher turns Chromium's third-party storage partitioning off (its switch
 * --disable-features=ThirdPartyStoragePartitioning, microsoft/playwright#32230), and without it Chromium
 * refuses localStorage to every cross-site frame with a SecurityError. Users' Chromium keeps it on, so this
 * test starts /usr/bin/chromium itself, with only the flags of this machine, and drives it over CDP.
 */

const appOrigin = `http://localhost:${process.env.E2E_PORT}`;

/** A game whose page reports what it can do with cookies and storage, in #report, as JSON. */
function probeGame(label: string): Buffer {
  return Buffer.from(`<!doctype html><title>${label}</title><pre id="report"></pre><script>
  const report = { cookiesSeen: document.cookie };
  // Cookies for its own host, for the app's host (localhost) and a cookie bomb: 6 x 3.5 KB made every app
  // request answer 431 when the play origin shared the app's host.
  const big = 'x'.repeat(3500);
  const attempts = ['plain=1; path=/', 'shared=1; domain=localhost; path=/', 'XSRF-TOKEN=forged; domain=localhost; path=/'];
  for (let i = 0; i < 6; i++) attempts.push('bomb' + i + '=' + big + '; domain=localhost; path=/');
  for (const cookie of attempts) document.cookie = cookie;
  try {
    report.before = localStorage.getItem('save');
    localStorage.setItem('save', ${JSON.stringify(label)});
    report.after = localStorage.getItem('save');
    report.keys = Object.keys(localStorage);
  } catch (error) {
    report.storageError = String(error);
  }
  document.getElementById('report').textContent = JSON.stringify(report);
</script>`);
}

interface Report {
  cookiesSeen: string;
  before: string | null;
  after: string | null;
  keys: string[];
  storageError?: string;
}

/** Makes the probe game `game` Ready. */
async function probeGameReady(api: Api, game: Game, label: string): Promise<Game> {
  await uploadFiles(api, game.id, [
    { path: 'probe/index.html', mimeType: 'text/html', buffer: probeGame(label) },
  ]);
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'probe/index.html')).fileId);
  const generated = await api.get(`/games/${game.id}/generate`, await api.asAdmin());
  expect(generated.status(), await generated.text()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  return game;
}

/** Chromium as a user starts it (no Playwright switches), and a CDP connection to it. */
async function startChromium(): Promise<{ browser: Browser; stop: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'reskin-chromium-'));
  const child: ChildProcess = spawn(
    '/usr/bin/chromium',
    [...chromiumFlags, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    // Its own process group, so that stopping it stops its helper processes too.
    { stdio: 'ignore', detached: true },
  );
  const portFile = join(profile, 'DevToolsActivePort');
  await expect
    .poll(() => existsSync(portFile) && readFileSync(portFile, 'utf8').includes('\n'), { timeout: 30_000 })
    .toBe(true);
  const port = readFileSync(portFile, 'utf8').split('\n')[0];
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  return {
    browser,
    stop: async () => {
      await browser.close().catch(() => undefined);
      // The whole process group: Chromium's helper processes outlive a killed browser process and go on writing
      // the profile, which then cannot be removed (ENOTEMPTY).
      const exited =
        child.exitCode !== null || child.signalCode !== null
          ? Promise.resolve()
          : new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group has ended already.
      }
      await exited;
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}

async function play(page: Page, game: Game): Promise<Report> {
  await page.goto(`${appOrigin}/games/game-play?gameId=${game.id}`);
  const frame = await gameFrame(page, `${game.name} (game)`);
  // A frame just attached may not have begun its navigation yet: its URL is then empty (a full run failed on
  // `new URL('')` once, under load).
  await expect.poll(() => frame.url()).toMatch(/^https?:\/\//);
  expect(new URL(frame.url()).host, 'the game has a host of its own').toBe(
    `g${game.id}.localhost:${process.env.E2E_PLAY_PORT}`,
  );
  const report = frame.locator('#report');
  await expect(report).not.toBeEmpty();
  return JSON.parse((await report.textContent()) ?? '{}') as Report;
}

test("a game in the play frame cannot read or set the cookies of the app, nor read another game's localStorage, and keeps its own", async ({
  api,
  makeUser,
  makeGame,
}) => {
  test.setTimeout(120_000);
  const admin = await makeUser(RoleType.Admin);
  const first = await probeGameReady(api, await makeGame(), 'Game one');
  const second = await probeGameReady(api, await makeGame(), 'Game two');
  const { browser, stop } = await startChromium();
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    // Signed in as the app does it (the session token in the app's localStorage); the API gives the app its
    // XSRF-TOKEN cookie, the one a game on the app's host could read before.
    await page.goto(`${appOrigin}/api/config`);
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
      storageKeys.token,
      admin.token,
    ] as const);
    const appCookies = async () => (await context.cookies(appOrigin)).map((cookie) => cookie.name).sort();
    expect(await appCookies()).toEqual(['XSRF-TOKEN']);
    const xsrfBefore = (await context.cookies(appOrigin))[0]!.value;

    const firstRun = await play(page, first);
    expect(firstRun.storageError, 'the game has localStorage').toBeUndefined();
    expect(firstRun.cookiesSeen, 'no cookie of the app is readable').toBe('');
    expect(firstRun).toMatchObject({ before: null, after: 'Game one', keys: ['save'] });

    // Nothing the game set reaches the app: its cookies are as they were, and every request still answers.
    expect(await appCookies()).toEqual(['XSRF-TOKEN']);
    expect((await context.cookies(appOrigin))[0]!.value).toBe(xsrfBefore);
    const appPage = await page.goto(`${appOrigin}/games`);
    expect(appPage?.status()).toBe(200);
    expect(await page.evaluate(async () => (await fetch('/api/config')).status)).toBe(200);

    // The other game sees none of the first one's storage; the app's session token is not readable either.
    const secondRun = await play(page, second);
    expect(secondRun).toMatchObject({ cookiesSeen: '', before: null, after: 'Game two', keys: ['save'] });

    // The first game finds what it saved when played again.
    const again = await play(page, first);
    expect(again).toMatchObject({ before: 'Game one', after: 'Game one' });
    expect(await appCookies()).toEqual(['XSRF-TOKEN']);
  } finally {
    await stop();
  }
});
