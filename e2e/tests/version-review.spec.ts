import { RoleType, emptyTexts, messages } from '@reskin/contract';
import type { Locator, Page } from '@playwright/test';
import {
  test,
  expect,
  cardTitle,
  dialog,
  errorToast,
  navLink,
  openWithToken,
  successToast,
  type Api,
  type TestUser,
} from '../fixtures/test';
import {
  createUserGame,
  createVersion,
  deleteUserGame,
  pngFiles,
  sampleGame,
  sampleGameName,
  uploadPng,
  versionPaths,
  versionsOf,
  type SampleGame,
} from '../fixtures/versions';
import type { GameVersion, UserGame } from '@reskin/contract';
import { playRequest } from '../fixtures/play';
import { readZip } from '../fixtures/zips';
import { previewSize } from '../fixtures/previews';

interface Setup {
  admin: TestUser;
  owner: TestUser;
  game: SampleGame;
  userGame: UserGame;
}

/** An admin, a user with an assignment of the sample game; the assignment is deleted afterwards. */
const it = test.extend<{ setup: Setup }>({
  setup: async ({ api, makeUser }, use) => {
    const admin = await makeUser(RoleType.Admin);
    const owner = await makeUser();
    const game = await sampleGame(api);
    const userGame = await createUserGame(api, { userId: owner.id, gameId: game.id });
    await use({ admin, owner, game, userGame });
    await deleteUserGame(api, userGame.id);
  },
});

const versionsUrl = (userGameId: number) => `/user-game-list/game-versions?userGameId=${userGameId}`;
const versionUrl = (screen: 'files' | 'play', v: GameVersion) =>
  `/user-game-list/game-versions/${screen}?versionId=${v.id}&gameId=${v.gameId}&userGameId=${v.userGamesId}`;

/** The row whose Name cell starts with `name` (a Finished version's cell also shows its badge and time). */
function versionRow(page: Page, name: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: new RegExp(`^${name}\\b`) }) });
}

function button(scope: Locator, name: string): Locator {
  return scope.getByRole('button', { name, exact: true });
}

async function markDone(api: Api, ownerToken: string, id: number): Promise<void> {
  const response = await api.post('/game-versions/done', { id }, ownerToken);
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('admin version review', () => {
  it('[AV-1] versions table: columns, actions, Finished marked; empty text', async ({ page, api, setup }) => {
    const { admin, owner, userGame } = setup;
    await openWithToken(page, admin.token, versionsUrl(userGame.id));
    await expect(page.getByText(emptyTexts.versions, { exact: true })).toBeVisible();

    const draft = await createVersion(api, owner.token, userGame, 'Draft one');
    const finished = await createVersion(api, owner.token, userGame, 'Done one', 'all images replaced');
    await markDone(api, owner.token, finished.id);
    await page.reload();
    await expect(cardTitle(page, `Versions of ${sampleGameName} for ${owner.username}`)).toBeVisible();
    for (const column of ['Name', 'Description', 'Is Active', 'Is Locked', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: column, exact: true }), column).toBeVisible();
    }
    await expect(page.locator('tbody tr')).toHaveCount(2);
    for (const version of [draft, finished]) {
      const r = versionRow(page, version.name);
      await expect(r).toContainText(version.description);
      await expect(r.getByRole('link', { name: 'Play', exact: true })).toHaveAttribute(
        'href',
        versionUrl('play', version),
      );
      await expect(r.getByRole('link', { name: 'Files', exact: true })).toHaveAttribute(
        'href',
        versionUrl('files', version),
      );
      for (const name of ['Disable', 'Lock', 'Delete']) await expect(button(r, name)).toBeVisible();
    }
    await expect(versionRow(page, finished.name).getByText('Finished', { exact: true })).toBeVisible();
    // With the moment the artist finished it.
    const finishedAt = (await versionsOf(api, userGame.id)).find((v) => v.id === finished.id)?.finishedAt;
    expect(finishedAt).toBeTruthy();
    await expect(versionRow(page, finished.name).locator('time')).toHaveAttribute(
      'datetime',
      finishedAt ?? '',
    );
    await expect(versionRow(page, draft.name).getByText('Finished', { exact: true })).toHaveCount(0);

    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/user-game-list$/);
  });

  it('[AV-2] Enable/Disable and Lock/UnLock toast; Delete confirms, toasts and reloads; failures show the message', async ({
    page,
    api,
    setup,
  }) => {
    const { admin, owner, userGame } = setup;
    const version = await createVersion(api, owner.token, userGame, 'Toggle me');
    const other = await createVersion(api, owner.token, userGame, 'Gone soon');
    await openWithToken(page, admin.token, versionsUrl(userGame.id));
    const r = versionRow(page, version.name);
    await expect(r).toBeVisible();
    const flags = async () => (await versionsOf(api, userGame.id)).find((v) => v.id === version.id);

    await button(r, 'Disable').click();
    await expect(successToast(page, messages.activityChanged)).toBeVisible();
    await expect(button(r, 'Enable')).toBeVisible();
    expect((await flags())?.isActive).toBe(false);
    await button(r, 'Enable').click();
    await expect(button(r, 'Disable')).toBeVisible();
    expect((await flags())?.isActive).toBe(true);

    await button(r, 'Lock').click();
    await expect(successToast(page, messages.lockChanged)).toBeVisible();
    await expect(button(r, 'UnLock')).toBeVisible();
    await expect(r.getByRole('cell').nth(3)).toHaveText('Yes');
    expect((await flags())?.isLocked).toBe(true);
    await button(r, 'UnLock').click();
    await expect(button(r, 'Lock')).toBeVisible();
    expect((await flags())?.isLocked).toBe(false);

    await button(r, 'Delete').click();
    await expect(dialog(page)).toContainText(messages.confirmDeleteNamed(version.name));
    const reload = page.waitForRequest(
      (q) => q.method() === 'POST' && q.url().endsWith('/api/game-versions/filter'),
    );
    await dialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect(successToast(page, messages.versionDeleted)).toBeVisible();
    await reload;
    await expect(r).toHaveCount(0);
    expect(await flags()).toBeUndefined();

    // The other version vanishes behind the screen's back: its toggle fails with the server's message.
    const response = await api.delete(`/game-versions/${other.id}`, await api.asAdmin());
    expect(response.status()).toBe(200);
    await button(versionRow(page, other.name), 'Lock').click();
    await expect(errorToast(page, 'Game version not found.')).toBeVisible();
    await expect(versionRow(page, other.name)).toHaveCount(0);
  });

  it('[AV-3] version play: tabs Back, Play User Version, Play Skeleton, Play Original in a sandboxed frame', async ({
    page,
    api,
    setup,
  }) => {
    const { admin, owner, userGame, game } = setup;
    const version = await createVersion(api, owner.token, userGame, 'Play me');
    const urls = await versionPaths(api, version.id, game.id);
    const index = urls.orjFile.slice(urls.rootPath.length);
    const viewOf = (src: string | null) => src?.replace(/\/p\/[^/]+\//, '/p/TOKEN/');

    const firstLoad = page.waitForResponse((r) => r.url().endsWith(`/${index}`) && r.url().includes('/p/'));
    await openWithToken(page, admin.token, versionUrl('play', version));
    const tabs = ['Play User Version', 'Play Skeleton', 'Play Original'];
    await expect(page.getByRole('link', { name: 'Back', exact: true })).toBeVisible();
    for (const tab of tabs) await expect(page.getByRole('tab', { name: tab })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Play User Version' })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    const frame = page.locator('iframe');
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-pointer-lock');
    await expect(frame).toHaveAttribute('allow', 'autoplay; fullscreen; gamepad');
    expect((await firstLoad).status()).toBe(200);
    const box = await frame.boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(game.width + 50);
    expect(Math.round(box?.height ?? 0)).toBe(game.height + 50);

    // Each tab shows its own view: the same index file under a different token.
    const srcs: string[] = [];
    for (const tab of tabs) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      const src = await frame.getAttribute('src');
      expect(viewOf(src)).toBe(viewOf(urls.orjFile));
      srcs.push(src ?? '');
    }
    expect(new Set(srcs).size).toBe(3);

    // The tab is in the URL: a reload, or the link shared, opens the same one.
    await expect(page).toHaveURL(/[?&]tab=original(&|$)/);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Play Original' })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveTitle('Play User Version · Reskin Studio');

    await page.getByRole('link', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/user-game-list/game-versions\\?userGameId=${userGame.id}$`));
  });

  it('[AV-4] version files: thumbnails of the replacement and the original, sortable by Update At; empty text', async ({
    page,
    api,
    setup,
  }) => {
    const { admin, owner, userGame, game } = setup;
    const empty = await createVersion(api, owner.token, userGame, 'No files yet');
    await openWithToken(page, admin.token, versionUrl('files', empty));
    await expect(page.getByText(emptyTexts.versionFiles, { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download All' })).toBeVisible();

    const version = await createVersion(api, owner.token, userGame, 'Two files');
    const [first, second] = await pngFiles(api, game.id);
    if (!first || !second) throw new Error('the sample game needs two PNG files');
    await uploadPng(api, owner.token, version.id, first);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // distinct update times
    await uploadPng(api, owner.token, version.id, second);

    await page.goto(versionUrl('files', version));
    for (const column of ['User Image', 'Ori Image', 'File ID', 'Path', 'Update At']) {
      await expect(page.getByRole('columnheader', { name: new RegExp(`^${column}`) }), column).toBeVisible();
    }
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    // Newest first, then the header flips the order.
    await expect(rows.nth(0)).toContainText(second.path);
    await expect(rows.nth(0).getByRole('cell').nth(2)).toHaveText(String(second.fileId));
    await page.getByRole('button', { name: /^Update At/ }).click();
    await expect(rows.nth(0)).toContainText(first.path);
    await expect(page.getByRole('columnheader', { name: /^Update At/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await page.getByRole('button', { name: /^Update At/ }).click();
    await expect(rows.nth(0)).toContainText(second.path);
    // The time shows to the minute; its tooltip gives the full moment, to the second.
    const time = rows.nth(0).locator('time');
    const seconds = new Date((await time.getAttribute('datetime')) ?? '').getUTCSeconds();
    await expect(time).toHaveAttribute(
      'title',
      new RegExp(`\\d:\\d\\d:${String(seconds).padStart(2, '0')}\\b`),
    );

    // The thumbnails load from the play origin at the files' real sizes.
    for (const [file, r] of [
      [second, rows.nth(0)],
      [first, rows.nth(1)],
    ] as const) {
      for (const alt of [`User image ${file.path}`, `Original image ${file.path}`]) {
        const img = r.getByRole('img', { name: alt, exact: true });
        await expect(img).toBeVisible();
        await expect
          .poll(() =>
            img.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]),
          )
          .toEqual([true, ...Object.values(previewSize(file.width, file.height))]);
      }
    }
    // The user's image is the replacement (a solid colour), the original is not: their bytes differ.
    const userSrc = await rows.nth(0).getByRole('img').nth(0).getAttribute('src');
    const oriSrc = await rows.nth(0).getByRole('img').nth(1).getAttribute('src');
    const [userBytes, oriBytes] = await Promise.all(
      [userSrc, oriSrc].map(async (src) => Buffer.from(await (await playRequest(page, src ?? '')).body())),
    );
    expect(userBytes?.equals(oriBytes ?? Buffer.alloc(0))).toBe(false);

    // A thumbnail opens the app's image viewer (the file as an <img>), never the file as a page.
    const pagesBefore = page.context().pages().length;
    await rows
      .nth(0)
      .getByRole('button', { name: `View User image ${second.path}` })
      .click();
    const viewer = dialog(page);
    await expect(viewer).toContainText(second.path);
    for (const alt of [`User image ${second.path}, larger`, `Original ${second.path}`]) {
      const img = viewer.getByRole('img', { name: alt, exact: true });
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]))
        .toEqual([true, second.width, second.height]);
    }
    expect(page.context().pages()).toHaveLength(pagesBefore);
    await viewer.getByRole('button', { name: 'Close' }).click();
    await expect(viewer).toHaveCount(0);
    await rows
      .nth(1)
      .getByRole('button', { name: `View Original image ${first.path}` })
      .click();
    await expect(
      dialog(page).getByRole('img', { name: `User image ${first.path}, larger`, exact: true }),
    ).toBeVisible();
    expect(page.context().pages()).toHaveLength(pagesBefore);
  });

  it("[AV-5] Download All opens the version's files.zip in a new window", async ({ page, api, setup }) => {
    const { admin, owner, userGame, game } = setup;
    const version = await createVersion(api, owner.token, userGame, 'Zip me');
    const [file] = await pngFiles(api, game.id);
    if (!file) throw new Error('the sample game needs a PNG file');
    await uploadPng(api, owner.token, version.id, file);

    await openWithToken(page, admin.token, versionUrl('files', version));
    await expect(page.locator('tbody tr')).toHaveCount(1);
    const zipResponse = page
      .context()
      .waitForEvent('response', (r) => r.url().includes(`/api/files/${version.id}/${game.id}/files.zip`));
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Download All' }).click();
    await popup;
    const response = await zipResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('zip');
    // The ticket in the URL is the only credential a new window has: fetch the same URL without a session.
    const zip = Buffer.from(
      await (await page.request.get(response.url(), { headers: { Authorization: '' } })).body(),
    );
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect([...(await readZip(zip)).keys()]).toEqual([file.path]);
  });

  it('[AV-5] a blocked pop-up alerts the pop-up message', async ({ page, setup, api }) => {
    const { admin, owner, userGame } = setup;
    const version = await createVersion(api, owner.token, userGame, 'Blocked zip');
    // Simulates a pop-up blocker: window.open answers null, as browsers do when they block it.
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await openWithToken(page, admin.token, versionUrl('files', version));
    await expect(page.getByText(emptyTexts.versionFiles, { exact: true })).toBeVisible();
    // The alert blocks the page until it is dismissed, so it is answered as it appears.
    const shown: { type: string; message: string }[] = [];
    page.on('dialog', (d) => {
      shown.push({ type: d.type(), message: d.message() });
      void d.accept();
    });
    await page.getByRole('button', { name: 'Download All' }).click();
    await expect.poll(() => shown).toEqual([{ type: 'alert', message: messages.popupBlocked }]);
  });

  it('[RT-8] reload keeps the versions, files and play screens with their data', async ({
    page,
    api,
    setup,
  }) => {
    const { admin, owner, userGame, game } = setup;
    const version = await createVersion(api, owner.token, userGame, 'Reload me');
    const [file] = await pngFiles(api, game.id);
    if (!file) throw new Error('the sample game needs a PNG file');
    await uploadPng(api, owner.token, version.id, file);

    await openWithToken(page, admin.token, versionsUrl(userGame.id));
    await expect(versionRow(page, version.name)).toBeVisible();
    await page.reload();
    await expect(versionRow(page, version.name)).toBeVisible();
    await expect(cardTitle(page, `Versions of ${sampleGameName} for ${owner.username}`)).toBeVisible();

    await versionRow(page, version.name).getByRole('link', { name: 'Files' }).click();
    await expect(page).toHaveURL(
      new RegExp(`versionId=${version.id}&gameId=${game.id}&userGameId=${userGame.id}$`),
    );
    await expect(page.locator('tbody tr')).toContainText(file.path);
    await page.reload();
    await expect(page.locator('tbody tr')).toContainText(file.path);

    await page.goto(versionsUrl(userGame.id));
    await versionRow(page, version.name).getByRole('link', { name: 'Play' }).click();
    await expect(page.locator('iframe')).toHaveAttribute('src', /\/p\//);
    await page.reload();
    await expect(page.locator('iframe')).toHaveAttribute('src', /\/p\//);
    await expect(page.getByRole('tab', { name: 'Play User Version' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});

test.describe('user-game routes', () => {
  const routes = [
    '/user-game-list',
    '/user-game-list/game-versions?userGameId=1',
    '/user-game-list/game-versions/files?versionId=1&gameId=1&userGameId=1',
    '/user-game-list/game-versions/play?versionId=1&gameId=1&userGameId=1',
  ];

  test('[RT-4] user-game-list and its children send anonymous visitors to login', async ({ page }) => {
    for (const path of routes) {
      await page.goto(path);
      await expect(page, `anonymous on ${path}`).toHaveURL(/\/login$/);
    }
  });

  test('[RT-4] user-game-list and its children send a regular user to the root route', async ({
    page,
    makeUser,
  }) => {
    const user = await makeUser();
    await openWithToken(page, user.token);
    await expect(navLink(page, 'Logout')).toBeVisible();
    for (const path of routes) {
      await page.goto(path);
      await expect(page, `user on ${path}`).toHaveURL(/\/$/);
    }
  });

  test('[RT-4] user-game-list and its children admit an administrator', async ({ page, makeUser }) => {
    const admin = await makeUser(RoleType.Admin);
    await openWithToken(page, admin.token);
    await expect(navLink(page, 'Admin')).toBeVisible();
    for (const path of routes) {
      await page.goto(path);
      await expect(navLink(page, 'Admin')).toBeVisible();
      await expect(page, `admin on ${path}`).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
    }
  });
});
