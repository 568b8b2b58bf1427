import type { Page } from '@playwright/test';
import {
  RoleType,
  historyMessages,
  messages,
  versionRuleMessages,
  type Game,
  type GameFile,
  type GameVersion,
  type VersionStorage,
} from '@reskin/contract';
import {
  test,
  expect,
  fileByPath,
  openWithToken,
  png,
  readyGame,
  successToast,
  type TestUser,
} from '../fixtures/games';
import { historyDialog, historyEntries, openFileHistory, restoreHistoryEntry } from '../fixtures/history';
import { playRequest } from '../fixtures/play';
import { createUserGame, createVersion, deleteUserGame, versionPaths } from '../fixtures/versions';
import { toggleLock, workbenchUrl } from '../fixtures/workbench';
import { pictureDifference } from '../fixtures/previews';

interface HistoryFixtures {
  owner: TestUser;
  /** A fresh Ready game of the tiny files (an index and one 40 x 30 image). */
  tinyGame: Game;
  version: GameVersion;
  dot: GameFile;
}

const it = test.extend<HistoryFixtures>({
  owner: async ({ makeUser }, use) => {
    await use(await makeUser());
  },
  tinyGame: async ({ api, makeGame }, use) => {
    const game = await makeGame();
    await readyGame(api, game);
    await use(game);
  },
  version: async ({ api, owner, tinyGame }, use) => {
    const userGame = await createUserGame(api, { userId: owner.id, gameId: tinyGame.id });
    await use(await createVersion(api, owner.token, userGame, 'History version'));
    await deleteUserGame(api, userGame.id);
  },
  dot: async ({ api, tinyGame }, use) => {
    await use(await fileByPath(api, tinyGame.id, 'tiny/img/dot.png'));
  },
});

const imageCard = (page: Page, path: string) => page.getByRole('region', { name: path, exact: true });
const dropInput = (page: Page, label: string) => page.locator(`input[type="file"][aria-label="${label}"]`);

/** How far the card's "Your image" (its preview, decision 0038) is from an image file (pictureDifference). */
const cardImageDifference = (page: Page, path: string, expected: Buffer) =>
  pictureDifference(imageCard(page, path).getByRole('img', { name: `Your ${path}`, exact: true }), expected);

test.describe('version history', () => {
  it('replace an image twice in the workbench, open History, see both entries, restore the first: the card shows it again', async ({
    page,
    owner,
    version,
    dot,
  }) => {
    const first = png(40, 30, 1);
    const second = png(40, 30, 2);
    await openWithToken(page, owner.token, workbenchUrl(version));
    const card = imageCard(page, dot.path);
    await expect(card).toContainText('Skeleton (not replaced yet)');

    for (const [index, buffer] of [first, second].entries()) {
      await dropInput(page, `Replace ${dot.path}`).setInputFiles({
        name: 'dot.png',
        mimeType: 'image/png',
        buffer,
      });
      await expect(successToast(page, messages.uploaded)).toHaveCount(index + 1);
      // The preview is lossy: it must be near this upload and nearer to it than to the other one.
      const other = index === 0 ? second : first;
      await expect
        .poll(async () => {
          const [near, far] = [
            await cardImageDifference(page, dot.path, buffer),
            await cardImageDifference(page, dot.path, other),
          ];
          return near < 25 && near < far;
        })
        .toBe(true);
    }

    // Both uploads are listed, newest first, with the artist's name; the newest is the current one.
    const dialog = await openFileHistory(page, dot.path, card);
    const entries = historyEntries(dialog);
    await expect(entries).toHaveCount(2);
    for (const row of [entries.nth(0), entries.nth(1)]) {
      await expect(row).toContainText('Uploaded');
      await expect(row).toContainText(owner.username);
      await expect(row).toContainText('40 x 30');
    }
    await expect(entries.nth(0)).toContainText('Current');
    await expect(entries.nth(1)).not.toContainText('Current');

    // The older entry beside the original: the dialog's picture is that upload, byte for byte.
    await entries.nth(1).getByRole('button', { name: 'View', exact: true }).click();
    const compare = dialog.getByTestId('history-compare');
    await expect(compare.getByRole('img', { name: `Original ${dot.path}`, exact: true })).toBeVisible();
    const shown = compare.getByRole('img', { name: new RegExp(`^History entry \\d+ of ${dot.path}$`) });
    await expect
      .poll(() => shown.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]))
      .toEqual([true, 40, 30]);
    const viewed = await page.request.get((await shown.getAttribute('src')) ?? '');
    expect(Buffer.from(await viewed.body()).equals(first)).toBe(true);

    // Cancel asks nothing more; restoring the first entry (row 1) makes it the version's image again.
    await entries.nth(1).getByRole('button', { name: 'Restore this', exact: true }).click();
    await dialog.getByTestId('history-confirm').getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(entries).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(historyDialog(page, dot.path)).toBeHidden();

    await restoreHistoryEntry(page, dot.path, 1, card);
    await expect
      .poll(async () => {
        const [near, far] = [
          await cardImageDifference(page, dot.path, first),
          await cardImageDifference(page, dot.path, second),
        ];
        return near < 25 && near < far;
      })
      .toBe(true);

    // After a reload the history still lists all three, the restore on top and current.
    await page.reload();
    const again = await openFileHistory(page, dot.path, imageCard(page, dot.path));
    await expect(historyEntries(again)).toHaveCount(3);
    await expect(historyEntries(again).first()).toContainText('Restored');
    await expect(historyEntries(again).first()).toContainText('Current');
  });

  it('[WB-12] a locked version offers no Restore in its history, to the reviewer or the artist, and says why (decision 0052)', async ({
    page,
    api,
    makeUser,
    owner,
    version,
    dot,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    for (const buffer of [png(40, 30, 5), png(40, 30, 6)]) {
      const response = await api.postMultipart(
        `/game-version/upload/${version.id}/${dot.fileId}`,
        { file: { name: 'dot.png', mimeType: 'image/png', buffer } },
        owner.token,
      );
      expect(response.status(), await response.text()).toBe(200);
    }
    await toggleLock(api, version.id);

    // The reviewer: the lock freezes the files for them too (the server answers 423), so no Restore, and why.
    await openWithToken(
      page,
      admin.token,
      `/user-game-list/game-versions/files?versionId=${version.id}&gameId=${version.gameId}&userGameId=${version.userGamesId}`,
    );
    const reviewed = await openFileHistory(
      page,
      dot.path,
      page.locator(`tbody tr[data-file-id="${dot.fileId}"]`),
    );
    await expect(historyEntries(reviewed)).toHaveCount(2);
    await expect(reviewed.getByTestId('history-no-restore')).toHaveText(
      historyMessages.noRestore(versionRuleMessages.lockedFiles),
    );
    await expect(reviewed.getByRole('button', { name: 'Restore this' })).toHaveCount(0);
    await reviewed.getByRole('button', { name: 'Close' }).click();

    // The artist alike, with their own reason.
    await openWithToken(page, owner.token, workbenchUrl(version));
    const own = await openFileHistory(page, dot.path, imageCard(page, dot.path));
    await expect(own.getByTestId('history-no-restore')).toHaveText(
      historyMessages.noRestore(versionRuleMessages.locked),
    );
    await expect(own.getByRole('button', { name: 'Restore this' })).toHaveCount(0);
    await own.getByRole('button', { name: 'Close' }).click();

    // Unlocked: Restore is offered again.
    await toggleLock(api, version.id);
    await page.reload();
    const open = await openFileHistory(page, dot.path, imageCard(page, dot.path));
    await expect(open.getByRole('button', { name: 'Restore this' })).toHaveCount(1);
    await expect(open.getByTestId('history-no-restore')).toHaveCount(0);
  });

  it("the admin's version files show the version's storage use and each file's history, and restore an entry", async ({
    page,
    api,
    makeUser,
    owner,
    version,
    dot,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const [first, second] = [png(40, 30, 3), png(40, 30, 4)];
    for (const buffer of [first, second]) {
      const response = await api.postMultipart(
        `/game-version/upload/${version.id}/${dot.fileId}`,
        { file: { name: 'dot.png', mimeType: 'image/png', buffer } },
        owner.token,
      );
      expect(response.status(), await response.text()).toBe(200);
    }
    await openWithToken(
      page,
      admin.token,
      `/user-game-list/game-versions/files?versionId=${version.id}&gameId=${version.gameId}&userGameId=${version.userGamesId}`,
    );
    const storage = (await (
      await api.get(`/game-versions/${version.id}/storage`, admin.token)
    ).json()) as VersionStorage;
    expect(storage).toMatchObject({
      currentBytes: second.length,
      historyBytes: first.length + second.length,
      historyEntries: 2,
    });
    await expect(page.getByTestId('version-storage')).toContainText('in 2 entries');

    const row = page.locator(`tbody tr[data-file-id="${dot.fileId}"]`);
    const dialog = await openFileHistory(page, dot.path, row);
    await expect(historyEntries(dialog)).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await restoreHistoryEntry(page, dot.path, 1, row);
    await expect(page.getByTestId('version-storage')).toContainText('in 3 entries');
    // The version serves the first upload again.
    const paths = await versionPaths(api, version.id, version.gameId);
    const served = await playRequest(page, new URL('img/dot.png', paths.orjFile).href);
    expect(Buffer.from(await served.body()).equals(first)).toBe(true);
  });
});
