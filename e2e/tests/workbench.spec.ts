import type { Locator, Page } from '@playwright/test';
import {
  GameVersionStatus,
  UserGameType,
  GameStatus,
  emptyTexts,
  messages,
  nothingToReplaceMessage,
  validationMessages,
  versionRuleMessages,
  type Game,
  type GameFile,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import {
  test,
  expect,
  errorToast,
  fileByPath,
  filesOf,
  openWithToken,
  readyGame,
  successToast,
  gameRow,
  uploadFiles,
  waitForStatus,
  type TestUser,
} from '../fixtures/games';
import {
  canvasPaint,
  canvasPixel,
  clearToasts,
  fetchInFrame,
  gameFrame,
  openPlayTab,
  playRequest,
} from '../fixtures/play';
import {
  createUserGame,
  createVersion,
  deleteUserGame,
  sampleGame,
  solidPng,
  uploadPng,
  versionsOf,
  type SampleGame,
} from '../fixtures/versions';
import { dropAreas, toggleLock, uploadHelperFile, wav, workbenchUrl } from '../fixtures/workbench';
import { pictureDifference, previewSize } from '../fixtures/previews';

interface Assignment {
  userGame: UserGame;
  version: GameVersion;
}

interface WorkbenchFixtures {
  /** A fresh artist (deleted after the test). */
  owner: TestUser;
  /** The seeded sample game: only ever assigned, never changed. */
  star: SampleGame;
  /** The sample game's images. */
  starImages: GameFile[];
  /** Assigns a game (the sample game unless told) to the owner with a job type and makes one version. */
  assign: (options?: { gameId?: number; type?: number }) => Promise<Assignment>;
  /** A fresh Ready game of the tiny files (an index and one 40 x 30 image, no sounds). */
  tinyGame: Game;
}

const it = test.extend<WorkbenchFixtures>({
  owner: async ({ makeUser }, use) => {
    await use(await makeUser());
  },
  star: async ({ api }, use) => {
    await use(await sampleGame(api));
  },
  starImages: async ({ api, star }, use) => {
    await use((await filesOf(api, star.id)).filter((f) => f.contentType.startsWith('image/')));
  },
  tinyGame: async ({ api, makeGame }, use) => {
    const game = await makeGame();
    await readyGame(api, game);
    await use(game);
  },
  assign: async ({ api, owner, star }, use) => {
    const made: number[] = [];
    await use(async ({ gameId = star.id, type = UserGameType.ReSkin } = {}) => {
      const userGame = await createUserGame(api, { userId: owner.id, gameId, userGameTypeId: type });
      made.push(userGame.id);
      const version = await createVersion(api, owner.token, userGame, 'My workbench version');
      return { userGame, version };
    });
    for (const id of made) await deleteUserGame(api, id);
  },
});

const finishButton = (page: Page) => page.getByRole('button', { name: 'I Finished My Game', exact: true });
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
/** The confirm dialog (components/ui/confirm-dialog) asking `question`. */
const confirmDialog = (page: Page, question: string) =>
  page.getByRole('dialog').filter({ hasText: question });
/** A drop area (role=group) by its accessible name. */
const dropArea = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
/** The hidden file input of a drop area (it carries the same label as its group). */
const dropInput = (page: Page, label: string) => page.locator(`input[type="file"][aria-label="${label}"]`);
/** The card of one game image in the image editor. */
const imageCard = (page: Page, path: string) => page.getByRole('region', { name: path, exact: true });
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Counts the version uploads the page sends (POST /api/game-version/upload/...). */
function countUploads(page: Page): { count: () => number } {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/game-version/upload/')) count++;
  });
  return { count: () => count };
}

/** Starts recording the data-state changes of a drop area, with their times (performance.now, ms). */
async function recordStates(area: Locator): Promise<void> {
  await area.evaluate((element) => {
    const log = [{ state: element.getAttribute('data-state'), at: performance.now() }];
    (element as HTMLElement & { stateLog?: typeof log }).stateLog = log;
    new MutationObserver(() =>
      log.push({ state: element.getAttribute('data-state'), at: performance.now() }),
    ).observe(element, { attributes: true, attributeFilter: ['data-state'] });
  });
}

/** How long the area stayed in `state` before it went back to idle (the last such stretch), in ms. */
async function heldFor(area: Locator, state: string): Promise<number> {
  const log = await area.evaluate(
    (element) =>
      (element as HTMLElement & { stateLog?: { state: string | null; at: number }[] }).stateLog ?? [],
  );
  const start = log.map((entry) => entry.state).lastIndexOf(state);
  const next = log[start + 1];
  const entry = log[start];
  if (!entry || !next) throw new Error(`no ${state} then change in ${JSON.stringify(log)}`);
  expect(next.state, JSON.stringify(log)).toBe('idle');
  return next.at - entry.at;
}

function byPathEnd(files: GameFile[], end: string): GameFile {
  const file = files.find((f) => f.path.endsWith(`/${end}`));
  if (!file) throw new Error(`no game file ends with ${end}`);
  return file;
}

test.describe('workbench', () => {
  it('[WB-1][WB-2] image job: tabs in order, opens on Files with a card per game image; the tab lives in the URL', async ({
    page,
    owner,
    star,
    starImages: images,
    assign,
  }) => {
    const { userGame, version } = await assign();
    await openWithToken(page, owner.token, workbenchUrl(version));
    const tabs = page.locator('.card-header-tabs').locator('a, button');
    await expect(tabs).toHaveText([
      'Back',
      'Files',
      'Play Your Version',
      'Play Skeleton Game',
      'Play Original Game',
      'Helper Files',
    ]);
    await expect(page.getByRole('link', { name: 'Back', exact: true })).toHaveAttribute(
      'href',
      `/my-games/versions?userGameId=${userGame.id}`,
    );
    await expect(tab(page, 'Files')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: `${star.name}: ${version.name}` })).toBeVisible();

    // The image editor: the multi drop, then one card per game image with the original, the skeleton and a drop.
    await expect(dropArea(page, 'Add Game Files')).toHaveAttribute('data-state', 'idle');
    expect(images.length).toBeGreaterThan(3);
    await expect(page.getByRole('tabpanel').getByRole('region')).toHaveCount(images.length);
    for (const image of images) {
      const card = imageCard(page, image.path);
      await expect(card, image.path).toContainText(`${image.width} x ${image.height}`);
      await expect(card.getByRole('img', { name: `Original ${image.path}`, exact: true })).toBeAttached();
      await expect(card.getByRole('img', { name: `Skeleton ${image.path}`, exact: true })).toBeAttached();
      await expect(card).toContainText('Skeleton (not replaced yet)');
      await expect(dropArea(page, `Replace ${image.path}`)).toHaveAttribute('data-state', 'idle');
    }
    // The first card's pictures really load from the play origin, at the image's size.
    const first = images[0];
    if (!first) throw new Error('no image');
    for (const alt of [`Original ${first.path}`, `Skeleton ${first.path}`]) {
      const img = imageCard(page, first.path).getByRole('img', { name: alt, exact: true });
      await img.scrollIntoViewIfNeeded();
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]))
        .toEqual([true, ...Object.values(previewSize(first.width, first.height))]);
    }

    // Choosing a tab puts it in the query string; a reload opens the same tab.
    await tab(page, 'Helper Files').click();
    await expect(page).toHaveURL(/[?&]tab=helper-files(&|$)/);
    await page.reload();
    await expect(tab(page, 'Helper Files')).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/my-games/versions\\?userGameId=${userGame.id}$`));
  });

  it('[WB-1][WB-2][WB-8] audio job: no skeleton or helper tabs; the audio editor with Download, Player, sortable Path and per-row Upload', async ({
    page,
    api,
    owner,
    star,
    assign,
  }) => {
    const { version } = await assign({ type: UserGameType.SoundReplace });
    // The editor renders the rows in view only (decision 0041): a window tall enough for all the sample's sounds.
    await page.setViewportSize({ width: 1280, height: 1600 });
    await openWithToken(page, owner.token, workbenchUrl(version));
    await expect(page.locator('.card-header-tabs').locator('a, button')).toHaveText([
      'Back',
      'Files',
      'Play Your Version',
      'Play Original Game',
    ]);
    await expect(tab(page, 'Files')).toHaveAttribute('aria-selected', 'true');
    // A pasted link to a tab this job has not falls back to Files.
    await page.goto(workbenchUrl(version, 'play-skeleton'));
    await expect(tab(page, 'Files')).toHaveAttribute('aria-selected', 'true');

    const sounds = (await filesOf(api, star.id)).filter((f) => f.contentType.startsWith('audio/'));
    expect(sounds.length).toBeGreaterThanOrEqual(2);
    await expect(page.getByText(`Current Game Files (${sounds.length})`, { exact: true })).toBeVisible();
    await expect(dropArea(page, 'Add Game Files')).toHaveAttribute('data-state', 'idle');
    // No image cards in the audio editor.
    await expect(page.getByRole('tabpanel').getByRole('region')).toHaveCount(0);
    for (const [index, name] of ['Download', 'Player', 'Path', 'Upload'].entries()) {
      await expect(page.getByRole('columnheader').nth(index)).toHaveText(new RegExp(`^${name}`));
    }
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(sounds.length);
    const ascending = sounds.map((s) => s.path).sort((a, b) => a.localeCompare(b));
    const pathCells = page.locator('tbody tr td:nth-child(3)');
    await expect(pathCells).toHaveText(ascending);
    await expect(page.getByRole('columnheader', { name: /^Path/ })).toHaveAttribute('aria-sort', 'ascending');
    await page.getByRole('button', { name: /^Path/ }).click();
    await expect(pathCells).toHaveText([...ascending].reverse());
    await expect(page.getByRole('columnheader', { name: /^Path/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await page.getByRole('button', { name: /^Path/ }).click();
    await expect(pathCells).toHaveText(ascending);

    for (const sound of sounds) {
      const row = rows.filter({ has: page.getByRole('cell', { name: sound.path, exact: true }) });
      const download = row.getByRole('link', { name: 'Download', exact: true });
      await expect(download).toHaveAttribute('target', '_blank');
      await expect(download).toHaveAttribute('download', '');
      const player = row.locator('audio');
      await expect(player).toHaveAttribute('aria-label', `Play ${sound.path}`);
      await expect(player).toHaveAttribute('controls', '');
      await expect(row).toContainText('Original sound');
      await expect(row.getByRole('group', { name: `Replace ${sound.path}`, exact: true })).toHaveAttribute(
        'data-state',
        'idle',
      );
      // The player's source and the download are the sound, served from the play origin.
      for (const url of [await player.getAttribute('src'), await download.getAttribute('href')]) {
        const response = await playRequest(page, url ?? '');
        expect(response.status(), url ?? '').toBe(200);
        expect(response.headers()['content-type'], url ?? '').toMatch(/^audio\//);
        expect(new URL(url ?? '').origin).not.toBe(new URL(page.url()).origin);
      }
    }
    // The player can really play it: the browser reads its duration.
    const player = rows.first().locator('audio');
    await player.evaluate((el: HTMLAudioElement) => {
      el.preload = 'metadata';
      el.load();
    });
    await expect
      .poll(() => player.evaluate((el: HTMLAudioElement) => el.duration), { timeout: 15_000 })
      .toBeGreaterThan(0);
  });

  it('[WB-3][WB-4] play tabs: the sandboxed frame of game size + 50 on the play origin, the game runs; I Finished My Game only there', async ({
    page,
    api,
    owner,
    star,
    assign,
  }) => {
    test.setTimeout(90_000);
    const { userGame, version } = await assign();
    await openWithToken(page, owner.token, workbenchUrl(version));
    await expect(tab(page, 'Files')).toHaveAttribute('aria-selected', 'true');
    await expect(dropArea(page, 'Add Game Files')).toBeVisible();
    await expect(finishButton(page)).toHaveCount(0);
    await tab(page, 'Helper Files').click();
    await expect(tab(page, 'Helper Files')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText(emptyTexts.helperFiles, { exact: true })).toBeVisible();
    await expect(finishButton(page)).toHaveCount(0);

    const appOrigin = new URL(page.url()).origin;
    const viewOf = (src: string | null) => src?.replace(/\/p\/[^/]+\//, '/p/TOKEN/');
    const srcs: string[] = [];
    for (const [label, key] of [
      ['Play Your Version', 'play-version'],
      ['Play Skeleton Game', 'play-skeleton'],
      ['Play Original Game', 'play-original'],
    ] as const) {
      await tab(page, label).click();
      await expect(tab(page, label)).toHaveAttribute('aria-selected', 'true');
      await expect(page).toHaveURL(new RegExp(`[?&]tab=${key}(&|$)`));
      const iframe = page.locator(`iframe[title="${star.name}: ${label}"]`);
      await expect(iframe, label).toHaveAttribute(
        'sandbox',
        'allow-scripts allow-same-origin allow-pointer-lock',
      );
      await expect(iframe).toHaveAttribute('allow', 'autoplay; fullscreen; gamepad');
      await expect(iframe).toHaveAttribute('width', String(star.width + 50));
      await expect(iframe).toHaveAttribute('height', String(star.height + 50));
      const box = await iframe.boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(star.width + 50);
      expect(Math.round(box?.height ?? 0)).toBe(star.height + 50);
      const src = (await iframe.getAttribute('src')) ?? '';
      expect(new URL(src).origin, 'the play origin is not the app origin').not.toBe(appOrigin);
      expect(new URL(src).port, 'served by the play server').toBe(process.env.E2E_PLAY_PORT);
      expect(src).toMatch(/\/p\/[^/]+\/star-catcher\/game\/index\.html$/);
      srcs.push(src);
      await expect(finishButton(page)).toBeVisible();

      // The game really runs: the canvas is drawn over (almost) all of its area. The skeleton view's images
      // are transparent and its background flat, the others show the (watermarked) images' many colours.
      const frame = await gameFrame(page, `${star.name}: ${label}`);
      await expect(frame.locator('canvas#game')).toBeVisible({ timeout: 20_000 });
      await expect
        .poll(async () => (await canvasPaint(frame)).opaque, { timeout: 30_000, message: `${label} canvas` })
        .toBeGreaterThan(star.width * star.height * 0.9);
      const paint = await canvasPaint(frame);
      if (key === 'play-skeleton') expect(paint.colours, label).toBeLessThan(500);
      else
        await expect
          .poll(async () => (await canvasPaint(frame)).colours, {
            timeout: 30_000,
            message: `${label} colours`,
          })
          .toBeGreaterThan(500);
    }
    // Three views of the same index page, each under its own token.
    expect(new Set(srcs.map(viewOf)).size).toBe(1);
    expect(new Set(srcs).size).toBe(3);

    // The frame is resizable (its handle, by keyboard here).
    const handle = page.getByRole('button', { name: /resize the game frame/i });
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('iframe')).toHaveAttribute('width', String(star.width + 60));

    // I Finished My Game (confirmed): POST /game-versions/done, the toast, and the version is Finished.
    const done = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/game-versions/done'),
    );
    await finishButton(page).click();
    await confirmDialog(page, messages.confirmFinishVersion).getByRole('button', { name: 'Confirm' }).click();
    expect((await done).postDataJSON()).toEqual({ id: version.id });
    await expect(successToast(page, messages.informed)).toBeVisible();
    await expect(successToast(page, messages.informed)).toHaveText(messages.informed);
    const saved = (await versionsOf(api, userGame.id)).find((v) => v.id === version.id);
    expect(saved?.gameVersionStatusId).toBe(GameVersionStatus.Finished);
    expect(saved?.finishedAt).toBeTruthy();
  });

  it('[WB-4] I Finished My Game asks first: Cancel leaves the version In progress; Confirm finishes it, and the workbench and the versions screen show when', async ({
    page,
    api,
    owner,
    tinyGame,
    assign,
  }) => {
    const { userGame, version } = await assign({ gameId: tinyGame.id });
    const finishedNote = page.getByText(/^Finished on /);
    const done: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/game-versions/done')) done.push(r.url());
    });
    await openWithToken(page, owner.token, workbenchUrl(version, 'play-version'));
    await expect(finishButton(page)).toBeVisible();
    await expect(finishedNote).toHaveCount(0);

    // Cancel: nothing is sent, the version stays In progress and the button stays.
    await finishButton(page).click();
    const dialog = confirmDialog(page, messages.confirmFinishVersion);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    expect(done).toHaveLength(0);
    const waiting = (await versionsOf(api, userGame.id)).find((v) => v.id === version.id);
    expect(waiting?.gameVersionStatusId).toBe(GameVersionStatus.InProgress);
    expect(waiting?.finishedAt).toBeNull();
    await expect(finishButton(page)).toBeVisible();

    // Confirm: the toast, the version is Finished, and the button gives way to when it was finished.
    await finishButton(page).click();
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.informed)).toHaveText(messages.informed);
    expect(done).toHaveLength(1);
    const finished = (await versionsOf(api, userGame.id)).find((v) => v.id === version.id);
    expect(finished?.gameVersionStatusId).toBe(GameVersionStatus.Finished);
    const finishedAt = finished?.finishedAt ?? '';
    expect(finishedAt).not.toBe('');
    await expect(finishButton(page)).toHaveCount(0);
    await expect(finishedNote).toBeVisible();
    await expect(finishedNote.locator('time')).toHaveAttribute('datetime', finishedAt);
    // Also after a reload, on the other play tabs and on Files.
    await page.reload();
    await expect(finishedNote.locator('time')).toHaveAttribute('datetime', finishedAt);
    await expect(finishButton(page)).toHaveCount(0);
    await tab(page, 'Play Original Game').click();
    await expect(finishButton(page)).toHaveCount(0);
    await tab(page, 'Files').click();
    await expect(finishedNote).toBeVisible();

    // The versions screen: the card carries the Finished badge and the finish time.
    await page.getByRole('link', { name: 'Back', exact: true }).click();
    const card = page.getByRole('region', { name: version.name, exact: true });
    await expect(card.getByText('Finished', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Finished on /).locator('time')).toHaveAttribute('datetime', finishedAt);
  });

  it('[WB-6] the side-by-side view: original and replacement at 1:1 pixels, zoomed 2x and 4x with hard edges, or fitted', async ({
    page,
    api,
    owner,
    starImages: images,
    assign,
  }) => {
    const { version } = await assign();
    const bomb = byPathEnd(images, 'bomb.png');
    const width = bomb.width ?? 0;
    const height = bomb.height ?? 0;
    await uploadPng(api, owner.token, version.id, bomb);
    await openWithToken(page, owner.token, workbenchUrl(version));
    await imageCard(page, bomb.path).getByRole('button', { name: 'Side by side', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: bomb.path, exact: true });
    await expect(dialog).toBeVisible();
    const original = dialog.getByRole('img', { name: `Original ${bomb.path}`, exact: true });
    const yours = dialog.getByRole('img', { name: `Your ${bomb.path}`, exact: true });
    await expect(dialog).toContainText('Original');
    await expect(dialog).toContainText('Your image');
    /** Each picture's drawn size in CSS pixels and its image-rendering. */
    const drawn = (img: Locator) =>
      img.evaluate((el: HTMLImageElement) => {
        const box = el.getBoundingClientRect();
        return [Math.round(box.width), Math.round(box.height), getComputedStyle(el).imageRendering];
      });
    const zoom = (label: string) => dialog.locator('label', { hasText: label }).click();

    // Opens at 1:1 pixels, both pictures loaded at the game image's size.
    for (const img of [original, yours]) {
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]))
        .toEqual([true, width, height]);
      expect(await drawn(img)).toEqual([width, height, 'auto']);
    }
    for (const factor of [2, 4]) {
      await zoom(`${factor}x`);
      for (const img of [original, yours]) {
        await expect.poll(() => drawn(img)).toEqual([width * factor, height * factor, 'pixelated']);
      }
    }
    // Fit: the whole picture inside its well.
    await zoom('Fit');
    const well = original.locator('..');
    const box = await well.evaluate((el) => [el.clientWidth, el.clientHeight]);
    await expect.poll(async () => (await drawn(original))[2]).toBe('auto');
    const [fitWidth = 0, fitHeight = 0] = (await drawn(original)) as number[];
    expect(fitWidth).toBeLessThanOrEqual(box[0] ?? 0);
    expect(fitHeight).toBeLessThanOrEqual(box[1] ?? 0);

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  it('[WB-6][WB-14] Restore original: asks first, removes the replacement, and Play Your Version serves the watermarked original again; not offered on a locked version', async ({
    page,
    api,
    owner,
    star,
    starImages: images,
    assign,
  }) => {
    test.setTimeout(90_000);
    const { version } = await assign();
    const splash = byPathEnd(images, 'splash.png');
    const replacement = solidPng(splash.width ?? 1, splash.height ?? 1, [200, 40, 90]);
    await openWithToken(page, owner.token, workbenchUrl(version));
    const card = imageCard(page, splash.path);
    const restoreButton = card.getByRole('button', { name: 'Restore original', exact: true });
    await expect(card).toContainText('Skeleton (not replaced yet)');
    await expect(restoreButton).toHaveCount(0);

    // The artist replaces the splash through the card's drop area.
    await dropInput(page, `Replace ${splash.path}`).setInputFiles({
      name: 'splash.png',
      mimeType: 'image/png',
      buffer: replacement,
    });
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    await expect(card).toContainText('Your image');

    /** The splash as Play Your Version and Play Original Game serve it, fetched from the play origin. */
    const splashIn = async (label: string) => {
      await tab(page, label).click();
      const src = (await page.locator(`iframe[title="${star.name}: ${label}"]`).getAttribute('src')) ?? '';
      expect(new URL(src).port, 'the play origin').toBe(process.env.E2E_PLAY_PORT);
      const response = await playRequest(page, new URL('../assets/img/splash.png', src).href);
      expect(response.status()).toBe(200);
      return Buffer.from(await response.body());
    };
    expect((await splashIn('Play Your Version')).equals(replacement)).toBe(true);
    const watermarked = await splashIn('Play Original Game');
    expect(watermarked.equals(replacement)).toBe(false);

    // A locked version offers no way back; unlocked, it does.
    await toggleLock(api, version.id);
    await tab(page, 'Files').click();
    await page.reload();
    await expect(card).toContainText('Your image');
    await expect(restoreButton).toHaveCount(0);
    await toggleLock(api, version.id);
    await page.reload();
    await expect(restoreButton).toBeVisible();

    // Cancel keeps the replacement.
    const deletes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'DELETE' && r.url().includes('/api/game-versions/')) deletes.push(r.url());
    });
    await restoreButton.click();
    const dialog = confirmDialog(page, messages.confirmRestoreOriginal(splash.path));
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    expect(deletes).toHaveLength(0);
    await expect(card).toContainText('Your image');

    // Confirm: DELETE /game-versions/{versionId}/files/{fileId}, the toast, and the card shows no replacement.
    await restoreButton.click();
    const response = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().includes(`/api/game-versions/${version.id}/files/`),
    );
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    const answer = await response;
    expect(answer.url()).toMatch(new RegExp(`/api/game-versions/${version.id}/files/${splash.fileId}$`));
    expect(answer.status()).toBe(204);
    await expect(successToast(page, messages.originalRestored)).toHaveText(messages.originalRestored);
    await expect(card).toContainText('Skeleton (not replaced yet)');
    await expect(card.getByRole('img', { name: `Your ${splash.path}`, exact: true })).toHaveCount(0);
    await expect(restoreButton).toHaveCount(0);

    // WB-14 the other way round: the version serves the watermarked original again.
    expect((await splashIn('Play Your Version')).equals(watermarked)).toBe(true);
  });

  it('[WB-8] Restore original in the audio editor: the row plays the original sound again', async ({
    page,
    api,
    owner,
    star,
    assign,
  }) => {
    const { version } = await assign({ type: UserGameType.SoundReplace });
    const sounds = (await filesOf(api, star.id)).filter((f) => f.contentType.startsWith('audio/'));
    const boom = byPathEnd(sounds, 'boom.wav');
    const uploaded = await api.postMultipart(
      `/game-version/upload/${version.id}/${boom.fileId}`,
      { file: { name: 'boom.wav', mimeType: 'audio/wav', buffer: wav(220) } },
      owner.token,
    );
    expect(uploaded.status(), await uploaded.text()).toBeLessThan(300);
    await openWithToken(page, owner.token, workbenchUrl(version));
    const row = page
      .locator('tbody tr')
      .filter({ has: page.getByRole('cell', { name: boom.path, exact: true }) });
    await expect(row).toContainText('Your sound');
    const others = page.locator('tbody tr').filter({ hasNotText: boom.path });
    await expect(others.getByRole('button', { name: 'Restore original' })).toHaveCount(0);

    await row.getByRole('button', { name: 'Restore original', exact: true }).click();
    await confirmDialog(page, messages.confirmRestoreOriginal(boom.path))
      .getByRole('button', { name: 'Confirm', exact: true })
      .click();
    await expect(successToast(page, messages.originalRestored)).toBeVisible();
    await expect(row).toContainText('Original sound');
    await expect(row.getByRole('button', { name: 'Restore original' })).toHaveCount(0);
    const download = await row.getByRole('link', { name: 'Download', exact: true }).getAttribute('href');
    await expect(row.locator('audio')).toHaveAttribute('src', download ?? '');
  });

  it('[WB-5] helper files: empty text, then downloadable links', async ({
    page,
    api,
    owner,
    tinyGame,
    assign,
  }) => {
    const { version } = await assign({ gameId: tinyGame.id });
    await openWithToken(page, owner.token, workbenchUrl(version, 'helper-files'));
    await expect(tab(page, 'Helper Files')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText(emptyTexts.helperFiles, { exact: true })).toBeVisible();

    const guide = 'Keep the palette of the original.';
    await uploadHelperFile(api, tinyGame.id, 'style-guide.txt', Buffer.from(guide));
    await uploadHelperFile(api, tinyGame.id, 'source.psd', Buffer.alloc(3000, 7));
    await page.reload();
    await expect(page.getByText(emptyTexts.helperFiles, { exact: true })).toHaveCount(0);
    const list = page.getByRole('table', { name: 'Helper files' });
    await expect(list.getByRole('link')).toHaveCount(2);
    expect((await list.getByRole('link').allInnerTexts()).sort()).toEqual(['source.psd', 'style-guide.txt']);
    for (const [name, body] of [
      ['style-guide.txt', Buffer.from(guide)],
      ['source.psd', Buffer.alloc(3000, 7)],
    ] as const) {
      const link = list.getByRole('link', { name, exact: true });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('download', name);
      // The link carries its own download ticket: it works without the session.
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).toMatch(/ticket=/);
      const response = await page.request.get(href, { headers: { Authorization: '' } });
      expect(response.status()).toBe(200);
      expect(response.headers()['content-disposition']).toContain('attachment');
      expect(Buffer.from(await response.body()).equals(body)).toBe(true);
    }
    // A real download through the browser.
    const download = page.waitForEvent('download');
    await list.getByRole('link', { name: 'style-guide.txt', exact: true }).click();
    expect((await download).suggestedFilename()).toBe('style-guide.txt');
  });

  it('[WB-6][WB-11][WB-14] single image drop: wrong size refused in the browser; the right size uploads, shows, resets after 5 s and plays', async ({
    page,
    owner,
    star,
    starImages: images,
    assign,
  }) => {
    test.setTimeout(90_000);
    const { version } = await assign();
    const splash = byPathEnd(images, 'splash.png');
    const width = splash.width ?? 0;
    const height = splash.height ?? 0;
    const uploads = countUploads(page);
    await openWithToken(page, owner.token, workbenchUrl(version));
    const card = imageCard(page, splash.path);
    const area = dropArea(page, `Replace ${splash.path}`);
    await expect(area).toHaveAttribute('data-state', 'idle');
    const before = await card
      .getByRole('img', { name: `Skeleton ${splash.path}`, exact: true })
      .getAttribute('src');

    // Wrong size: refused before anything is sent.
    await dropInput(page, `Replace ${splash.path}`).setInputFiles({
      name: 'splash.png',
      mimeType: 'image/png',
      buffer: solidPng(width + 1, height - 1, [10, 20, 30]),
    });
    const sizeMessage = validationMessages.imageSize(
      { width, height },
      { width: width + 1, height: height - 1 },
    );
    expect(sizeMessage).toBe(`Original Size ${width} x ${height} Loaded Size ${width + 1} x ${height - 1}`);
    await expect(errorToast(page, sizeMessage)).toHaveText(sizeMessage);
    await expect(area).toHaveAttribute('data-state', 'error');
    await expect(area.getByRole('alert')).toHaveText(sizeMessage);
    expect(uploads.count()).toBe(0);
    await expect(card).toContainText('Skeleton (not replaced yet)');

    // The right size: uploaded, toasted, and the preview switches to the user's image.
    await clearToasts(page);
    await recordStates(area);
    const colour: [number, number, number] = [200, 40, 90];
    const replacement = solidPng(width, height, colour);
    await dropInput(page, `Replace ${splash.path}`).setInputFiles({
      name: 'splash.png',
      mimeType: 'image/png',
      buffer: replacement,
    });
    await expect(successToast(page, messages.uploaded)).toHaveText(messages.uploaded);
    await expect(area).toHaveAttribute('data-state', 'success');
    await expect(area.getByRole('status')).toHaveText(messages.uploaded);
    expect(uploads.count()).toBe(1);
    await expect(card).toContainText('Your image');
    const mine = card.getByRole('img', { name: `Your ${splash.path}`, exact: true });
    await expect(mine).toBeVisible();
    const after = (await mine.getAttribute('src')) ?? '';
    expect(after).not.toBe(before);
    await expect
      .poll(() => mine.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]))
      .toEqual([true, ...Object.values(previewSize(width, height))]);
    await expect.poll(() => pictureDifference(mine, replacement)).toBeLessThan(8);
    // Other images are untouched.
    const other = images.find((i) => i.fileId !== splash.fileId);
    if (other) await expect(imageCard(page, other.path)).toContainText('Skeleton (not replaced yet)');

    // SPEC §4: the area resets 5000 ms after a success.
    await expect(area).toHaveAttribute('data-state', 'idle', { timeout: 10_000 });
    const held = await heldFor(area, 'success');
    expect(held).toBeGreaterThanOrEqual(4800);
    expect(held).toBeLessThan(6800);
    await expect(area).toContainText(`Drop one image of ${width} x ${height} px here`);

    // WB-14: Play Your Version draws the replaced splash on the title screen; the original does not.
    const centre = { x: Math.round(star.width / 2), y: 70 + Math.round(height / 2) };
    const yours = await openPlayTab(page, star.name, 'Play Your Version');
    await expect
      .poll(() => canvasPixel(yours, centre.x, centre.y), { timeout: 30_000, message: 'the title image' })
      .toEqual(colour);
    expect(Buffer.from(await fetchInFrame(yours, '../assets/img/splash.png?v=1')).equals(replacement)).toBe(
      true,
    );
    const original = await openPlayTab(page, star.name, 'Play Original Game');
    await expect
      .poll(async () => (await canvasPaint(original)).colours, { timeout: 30_000 })
      .toBeGreaterThan(500);
    expect(await canvasPixel(original, centre.x, centre.y)).not.toEqual(colour);
    expect(
      Buffer.from(await fetchInFrame(original, '../assets/img/splash.png?v=1')).equals(replacement),
    ).toBe(false);
  });

  it('[WB-7] image multi-upload: matched by name, unknown names and non-images refused, duplicates refused, more than 50 refused', async ({
    page,
    owner,
    starImages: images,
    assign,
  }) => {
    const { version } = await assign();
    const [bomb, heart, cloud, basket, stars] = [
      'bomb.png',
      'heart.png',
      'cloud.png',
      'basket.png',
      'star-sheet.png',
    ].map((name) => byPathEnd(images, name));
    if (!bomb || !heart || !cloud || !basket || !stars) throw new Error('sample images missing');
    const sized = (file: GameFile, seed: number) => ({
      name: baseName(file.path),
      mimeType: 'image/png',
      buffer: solidPng(file.width ?? 1, file.height ?? 1, [seed, 255 - seed, 120]),
    });
    const uploads = countUploads(page);
    await openWithToken(page, owner.token, workbenchUrl(version));
    const area = dropArea(page, 'Add Game Files');
    const input = dropInput(page, 'Add Game Files');
    await expect(area).toHaveAttribute('data-state', 'idle');

    // Two images matched by their names: both uploaded.
    await input.setInputFiles([sized(bomb, 10), sized(heart, 20)]);
    await expect(successToast(page, messages.uploaded)).toHaveText(messages.uploaded);
    await expect(area).toHaveAttribute('data-state', 'success');
    await expect(area.getByRole('status')).toHaveText(`${messages.uploaded} 2 of 2 files uploaded.`);
    expect(uploads.count()).toBe(2);
    for (const file of [bomb, heart]) await expect(imageCard(page, file.path)).toContainText('Your image');
    await expect(imageCard(page, cloud.path)).toContainText('Skeleton (not replaced yet)');

    // A mixed drop: one good image, an unknown name, a non-image under an image's name, a name twice.
    await clearToasts(page);
    await input.setInputFiles([
      sized(cloud, 30),
      { name: 'no-such-image.png', mimeType: 'image/png', buffer: solidPng(8, 8, [1, 2, 3]) },
      { name: baseName(basket.path), mimeType: 'text/plain', buffer: Buffer.from('not an image at all') },
      sized(stars, 40),
      sized(stars, 50),
    ]);
    await expect(area).toHaveAttribute('data-state', 'error');
    const problems = [
      `no-such-image.png: ${validationMessages.noMatchingFile}`,
      `${baseName(basket.path)}: ${validationMessages.imageReadError}`,
      `${baseName(stars.path)}: ${validationMessages.multipleSameName}`,
    ];
    await expect(area.getByRole('alert')).toContainText('2 of 5 files uploaded.');
    await expect(area.getByRole('alert').getByRole('listitem')).toHaveText(problems);
    const failure = errorToast(page, messages.uploadFailed);
    await expect(failure).toContainText(messages.uploadFailed);
    await expect(failure).toContainText(problems[0] ?? '');
    expect(uploads.count()).toBe(4);
    for (const file of [cloud, stars]) await expect(imageCard(page, file.path)).toContainText('Your image');
    await expect(imageCard(page, basket.path)).toContainText('Skeleton (not replaced yet)');

    // More than 50 files: refused as a whole, nothing is sent.
    await clearToasts(page);
    const many = Array.from({ length: 51 }, (_, i) => ({
      name: `image-${i}.png`,
      mimeType: 'image/png',
      buffer: solidPng(2, 2, [i, i, i]),
    }));
    await input.setInputFiles(many);
    await expect(errorToast(page, /At most 50 files/)).toHaveText(
      'At most 50 files can be dropped at once; 51 were dropped.',
    );
    await expect(area).toHaveAttribute('data-state', 'error');
    expect(uploads.count()).toBe(4);
  });

  it("[WB-10][WB-11] a single target refuses two files ('Multiple Files are not allowed!') and a vanished game file ('File is not found!')", async ({
    page,
    api,
    owner,
    tinyGame,
    assign,
  }) => {
    const { version } = await assign({ gameId: tinyGame.id });
    const dot = await fileByPath(api, tinyGame.id, 'tiny/img/dot.png');
    const uploads = countUploads(page);
    await openWithToken(page, owner.token, workbenchUrl(version));
    const area = dropArea(page, 'Replace tiny/img/dot.png');
    await expect(area).toHaveAttribute('data-state', 'idle');

    // Two files dropped onto one image's area (a real drop event: its chooser takes only one file).
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['a'], 'dot.png', { type: 'image/png' }));
      transfer.items.add(new File(['b'], 'dot-2.png', { type: 'image/png' }));
      return transfer;
    });
    await area.dispatchEvent('dragenter', { dataTransfer });
    await area.dispatchEvent('drop', { dataTransfer });
    const multiple = validationMessages.multipleFilesNotAllowed;
    expect(multiple).toBe('Multiple Files are not allowed!');
    await expect(errorToast(page, multiple)).toHaveText(multiple);
    await expect(area).toHaveAttribute('data-state', 'error');
    await expect(area.getByRole('alert')).toHaveText(multiple);
    expect(uploads.count()).toBe(0);

    // The admin removes the game file while the artist has it open: the server no longer finds it.
    await clearToasts(page);
    await expect(area).toHaveAttribute('data-state', 'idle', { timeout: 10_000 });
    const removed = await api.delete(`/games/${tinyGame.id}/files/${dot.fileId}/`, await api.asAdmin());
    expect(removed.status(), await removed.text()).toBe(200);
    await recordStates(area);
    await dropInput(page, 'Replace tiny/img/dot.png').setInputFiles({
      name: 'dot.png',
      mimeType: 'image/png',
      buffer: solidPng(dot.width ?? 1, dot.height ?? 1, [9, 9, 9]),
    });
    const failure = errorToast(page, messages.uploadFailed);
    await expect(failure).toContainText(validationMessages.fileNotFound);
    await expect(area.getByRole('alert')).toHaveText(validationMessages.fileNotFound);
    expect(uploads.count()).toBe(1);
    // WB-11: the area resets 7000 ms after an error (not at the 5000 ms of a success).
    await page.waitForTimeout(5500);
    await expect(area).toHaveAttribute('data-state', 'error');
    await expect(area).toHaveAttribute('data-state', 'idle', { timeout: 5000 });
    const held = await heldFor(area, 'error');
    expect(held).toBeGreaterThanOrEqual(6800);
    expect(held).toBeLessThan(9000);
  });

  it('[WB-11][WB-12] locked version: an upload the server refuses (423) shows the error, then every drop area is disabled with a reason; the API answers 423', async ({
    page,
    api,
    owner,
    starImages: images,
    assign,
  }) => {
    test.setTimeout(90_000);
    const { version } = await assign();
    const bomb = byPathEnd(images, 'bomb.png');
    const label = `Replace ${bomb.path}`;
    const file = {
      name: 'bomb.png',
      mimeType: 'image/png',
      buffer: solidPng(bomb.width ?? 1, bomb.height ?? 1, [0, 0, 255]),
    };
    await openWithToken(page, owner.token, workbenchUrl(version));
    const area = dropArea(page, label);
    await expect(area).toHaveAttribute('data-state', 'idle');
    await expect(page.getByText(versionRuleMessages.locked)).toHaveCount(0);

    // The reviewer locks the version after the page loaded: the server refuses the upload.
    await toggleLock(api, version.id);
    const response = page.waitForResponse((r) => r.url().includes(`/api/game-version/upload/${version.id}/`));
    await dropInput(page, label).setInputFiles(file);
    expect((await response).status()).toBe(423);
    const failure = errorToast(page, messages.uploadFailed);
    await expect(failure).toContainText(messages.uploadFailed);
    await expect(failure).toContainText(versionRuleMessages.locked);
    await expect(imageCard(page, bomb.path)).toContainText('Skeleton (not replaced yet)');
    // The refusal reloads the version: every drop area turns disabled with the reason, without a reload.
    const reason = versionRuleMessages.locked;
    await expect(area).toHaveAttribute('data-state', 'disabled');
    await expect(area).toContainText(reason);
    await expect(dropArea(page, 'Add Game Files')).toHaveAttribute('data-state', 'disabled');

    // Opened again, the locked version shows every drop area disabled, with the reason.
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: reason })).toBeVisible();
    const areas = dropAreas(page);
    await expect(areas).toHaveCount(images.length + 1);
    for (const name of ['Add Game Files', ...images.map((i) => `Replace ${i.path}`)]) {
      const group = dropArea(page, name);
      await expect(group, name).toHaveAttribute('data-state', 'disabled');
      await expect(group).toHaveAttribute('aria-disabled', 'true');
      await expect(group).toContainText(reason);
    }
    // Choosing a file there sends nothing.
    const uploads = countUploads(page);
    await dropInput(page, label)
      .setInputFiles(file)
      .catch(() => undefined);
    await page.waitForTimeout(500);
    expect(uploads.count()).toBe(0);
    await expect(area).toHaveAttribute('data-state', 'disabled');

    // The server refuses the owner's upload to a locked version, whatever the client does.
    const direct = await api.postMultipart(
      `/game-version/upload/${version.id}/${bomb.fileId}`,
      { fullPath: bomb.path, file },
      owner.token,
    );
    expect(direct.status()).toBe(423);
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe('VERSION_LOCKED');

    // Unlocked, the areas are open again and the same upload goes through.
    await toggleLock(api, version.id);
    await page.reload();
    await expect(area).toHaveAttribute('data-state', 'idle');
    await expect(area).toHaveAttribute('aria-disabled', 'false');
    await dropInput(page, label).setInputFiles(file);
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    await expect(imageCard(page, bomb.path)).toContainText('Your image');
  });

  it('[WB-8][WB-9][WB-11][WB-14] audio uploads: per row and by name; non-audio refused in the browser and by the server; Play Your Version serves the new sound', async ({
    page,
    api,
    owner,
    star,
    assign,
  }) => {
    test.setTimeout(90_000);
    const { version } = await assign({ type: UserGameType.SoundReplace });
    // The editor renders the rows in view only (decision 0041): a window tall enough for all the sample's sounds.
    await page.setViewportSize({ width: 1280, height: 1600 });
    const sounds = (await filesOf(api, star.id)).filter((f) => f.contentType.startsWith('audio/'));
    const boom = byPathEnd(sounds, 'boom.wav');
    const catchSound = byPathEnd(sounds, 'catch.wav');
    const music = byPathEnd(sounds, 'music.ogg');
    const row = (file: GameFile) =>
      page.locator('tbody tr').filter({ has: page.getByRole('cell', { name: file.path, exact: true }) });
    const uploads = countUploads(page);
    await openWithToken(page, owner.token, workbenchUrl(version));
    await expect(page.getByText(`Current Game Files (${sounds.length})`, { exact: true })).toBeVisible();

    // One sound on its own row.
    const boomArea = dropArea(page, `Replace ${boom.path}`);
    const originalSrc = await row(boom).locator('audio').getAttribute('src');
    await dropInput(page, `Replace ${boom.path}`).setInputFiles({
      name: 'my-boom.wav',
      mimeType: 'audio/wav',
      buffer: wav(220),
    });
    await expect(successToast(page, messages.uploaded)).toHaveText(messages.uploaded);
    await expect(boomArea).toHaveAttribute('data-state', 'success');
    await expect(row(boom)).toContainText('Your sound');
    const boomSrc = (await row(boom).locator('audio').getAttribute('src')) ?? '';
    expect(boomSrc).not.toBe(originalSrc);
    expect(Buffer.from(await (await playRequest(page, boomSrc)).body()).equals(wav(220))).toBe(true);
    expect(uploads.count()).toBe(1);

    // Several sounds matched by name on 'Add Game Files'.
    await clearToasts(page);
    const area = dropArea(page, 'Add Game Files');
    const input = dropInput(page, 'Add Game Files');
    const newCatch = wav(660);
    await input.setInputFiles([
      { name: 'catch.wav', mimeType: 'audio/wav', buffer: newCatch },
      { name: 'boom.wav', mimeType: 'audio/wav', buffer: wav(330) },
    ]);
    await expect(successToast(page, messages.uploaded)).toHaveText(messages.uploaded);
    await expect(area.getByRole('status')).toHaveText(`${messages.uploaded} 2 of 2 files uploaded.`);
    await expect(row(catchSound)).toContainText('Your sound');
    await expect(row(music)).toContainText('Original sound');
    expect(uploads.count()).toBe(3);

    // Non-audio and unknown names in a multi drop: refused in the browser.
    await clearToasts(page);
    await input.setInputFiles([
      { name: 'music.ogg', mimeType: 'text/plain', buffer: Buffer.from('la la la') },
      { name: 'unknown.wav', mimeType: 'audio/wav', buffer: wav(100) },
    ]);
    await expect(area).toHaveAttribute('data-state', 'error');
    const problems = [
      `music.ogg: ${validationMessages.notAudio}`,
      `unknown.wav: ${validationMessages.noMatchingFile}`,
    ];
    await expect(area.getByRole('alert').getByRole('listitem')).toHaveText(problems);
    await expect(errorToast(page, messages.uploadFailed)).toContainText(problems[0] ?? '');
    expect(uploads.count()).toBe(3);

    // A single non-audio file on a row: 'File is not audio', nothing sent.
    await clearToasts(page);
    const musicArea = dropArea(page, `Replace ${music.path}`);
    await dropInput(page, `Replace ${music.path}`).setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a sound'),
    });
    await expect(errorToast(page, validationMessages.notAudio)).toHaveText(validationMessages.notAudio);
    await expect(musicArea).toHaveAttribute('data-state', 'error');
    expect(uploads.count()).toBe(3);

    // A file that claims to be audio but is not: the server refuses it (content check) and the upload fails.
    await clearToasts(page);
    await dropInput(page, `Replace ${music.path}`).setInputFiles({
      name: 'music.ogg',
      mimeType: 'audio/ogg',
      buffer: Buffer.from('just text pretending to be a sound'),
    });
    const failure = errorToast(page, messages.uploadFailed);
    await expect(failure).toContainText(messages.uploadFailed);
    await expect(failure).toContainText(validationMessages.notAudio);
    await expect(musicArea.getByRole('alert')).toHaveText(validationMessages.notAudio);
    expect(uploads.count()).toBe(4);
    await expect(row(music)).toContainText('Original sound');

    // WB-14: the game in Play Your Version loads the new sound; the original view keeps the old one.
    const yours = await openPlayTab(page, star.name, 'Play Your Version');
    await expect(yours.locator('canvas#game')).toBeVisible({ timeout: 20_000 });
    expect((await fetchInFrame(yours, '../assets/sfx/catch.wav?v=1')).equals(newCatch)).toBe(true);
    const original = await openPlayTab(page, star.name, 'Play Original Game');
    await expect(original.locator('canvas#game')).toBeVisible({ timeout: 20_000 });
    expect((await fetchInFrame(original, '../assets/sfx/catch.wav?v=1')).equals(newCatch)).toBe(false);
  });

  it('[WB-13] an audio job for a game without sounds shows the empty text', async ({
    page,
    owner,
    tinyGame,
    assign,
  }) => {
    const { version } = await assign({ gameId: tinyGame.id, type: UserGameType.SoundReplace });
    await openWithToken(page, owner.token, workbenchUrl(version));
    await expect(tab(page, 'Files')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('Current Game Files (0)', { exact: true })).toBeVisible();
    await expect(page.getByText(emptyTexts.audioFiles, { exact: true })).toBeVisible();
    expect(emptyTexts.audioFiles).toBe('There are no game files. Please contact the admin.');
    await expect(page.locator('tbody tr')).toHaveCount(0);
    await expect(page.getByRole('tabpanel').getByRole('region')).toHaveCount(0);
  });

  it('a Unity build that packs its assets says so on the workbench, and the games list shows its engine', async ({
    page,
    api,
    owner,
    makeGame,
    assign,
  }) => {
    // Uploads, generation and three screens: more than the default time on a busy machine.
    it.slow();
    // A game with only packed data, laid out as Unity's WebGL export writes it: nothing an artist can replace.
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      {
        path: 'index.html',
        mimeType: 'text/html',
        buffer: Buffer.from(
          '<!doctype html><canvas id="unity-canvas"></canvas><script src="Build/game.loader.js"></script>',
        ),
      },
      {
        path: 'Build/game.loader.js',
        mimeType: 'text/javascript',
        buffer: Buffer.from(
          'function createUnityInstance(canvas, config, onProgress) { return Promise.resolve(); }',
        ),
      },
      {
        path: 'Build/game.framework.js',
        mimeType: 'text/javascript',
        buffer: Buffer.from('var unityFramework = function () {};'),
      },
      {
        path: 'Build/game.data',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('UnityWebData1.0\0'),
      },
      {
        path: 'Build/game.wasm',
        mimeType: 'application/wasm',
        buffer: Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
      },
    ]);
    const generated = await api.get(`/games/${game.id}/generate`, await api.asAdmin());
    expect(generated.status(), await generated.text()).toBe(200);
    await waitForStatus(api, game.id, GameStatus.Ready);

    const { version } = await assign({ gameId: game.id });
    await openWithToken(page, owner.token, workbenchUrl(version));
    await expect(tab(page, 'Files')).toHaveAttribute('aria-selected', 'true');
    const message = nothingToReplaceMessage('Unity', 'image');
    expect(message).toBe(
      'This Unity build packs its assets inside its data files; there is nothing to replace here.',
    );
    await expect(page.getByRole('tabpanel').getByText(message, { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText(emptyTexts.images, { exact: true })).toHaveCount(0);
    await expect(page.getByRole('tabpanel').getByRole('region')).toHaveCount(0);

    // The admin sees the engine in the games list and on the game files screen.
    await openWithToken(page, await api.asAdmin(), `/games?q=${encodeURIComponent(game.name)}`);
    const row = gameRow(page, game.name);
    await expect(row).toBeVisible({ timeout: 30_000 });
    const engineColumn = await page.getByRole('columnheader').allInnerTexts();
    const at = engineColumn.findIndex((text) => text.trim().startsWith('Engine'));
    expect(at).toBeGreaterThan(-1);
    await expect(row.getByRole('cell').nth(at)).toHaveText('Unity');
    await openWithToken(page, await api.asAdmin(), `/games/game-files?gameId=${game.id}`);
    await expect(page.getByTestId('game-engine')).toHaveText('Engine: Unity', { timeout: 30_000 });
  });

  it('an image job for a game without images and no packed engine keeps the plain empty text', async ({
    page,
    owner,
    api,
    makeGame,
    assign,
  }) => {
    it.slow();
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      {
        path: 'index.html',
        mimeType: 'text/html',
        buffer: Buffer.from('<!doctype html><canvas></canvas><script src="game.js"></script>'),
      },
      {
        path: 'game.js',
        mimeType: 'text/javascript',
        buffer: Buffer.from('document.querySelector("canvas").getContext("2d");'),
      },
    ]);
    const generated = await api.get(`/games/${game.id}/generate`, await api.asAdmin());
    expect(generated.status(), await generated.text()).toBe(200);
    await waitForStatus(api, game.id, GameStatus.Ready);
    const { version } = await assign({ gameId: game.id });
    await openWithToken(page, owner.token, workbenchUrl(version));
    await expect(page.getByRole('tabpanel').getByText(emptyTexts.images, { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId('nothing-to-replace')).toHaveCount(0);
  });
});
