import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { GameStatus, RoleType, gameReadinessMessages, generationFailureMessage } from '@reskin/contract';
import {
  test,
  expect,
  content,
  fileByPath,
  gameRow,
  markIndex,
  nav,
  openWithToken,
  png,
  uploadFiles,
  waitForStatus,
} from '../fixtures/games';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';

/**
 * Decision 0052: a game whose generation failed is said as such to the artist (not "being prepared", and no
 * "Could not load" toast), every administrator has it in the inbox, and the games list and files screen say why in
 * words with Gen. to try again.
 */

/** Overwrites the stored object whose bytes are `content` in the game's folder of the server's DATA_DIR: the disk fault a real server meets. */
function damageStoredFile(gameId: number, content: Buffer): void {
  const root = join(process.env.E2E_DATA_DIR ?? '', 'files', 'games', String(gameId));
  // The server writes the image's previews beside it meanwhile (a temporary file renamed when done): a file that
  // vanishes between the listing and the read is not the one.
  const sameBytes = (path: string) => {
    try {
      return statSync(path).size === content.length && readFileSync(path).equals(content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  };
  const match = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .find(sameBytes);
  if (!match) throw new Error('the uploaded image is not in the data dir');
  writeFileSync(match, 'these bytes are no image');
}

const errorToasts = (page: Page) => page.locator('.Toastify__toast--error');

test('[MG-1][GAM-4] a failed game: the artist reads it could not be prepared (no toast), admins are told in the inbox, the games list and files screen say why with Gen.', async ({
  page,
  api,
  makeUser,
  makeGame,
}) => {
  const admin = await makeUser(RoleType.Admin);
  const artist = await makeUser();
  const game = await makeGame({ description: 'Its art is damaged' });
  // An image of its own (a seed no other test uses), so its stored copy is found by its bytes.
  const art = png(33, 21, 977);
  await uploadFiles(api, game.id, [
    {
      path: 'index.html',
      mimeType: 'text/html',
      buffer: Buffer.from('<!doctype html><img src="img/hero.png">'),
    },
    { path: 'img/hero.png', mimeType: 'image/png', buffer: art },
  ]);
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'index.html')).fileId);
  damageStoredFile(game.id, art);
  const userGame = await createUserGame(api, { userId: artist.id, gameId: game.id });
  try {
    const version = await createVersion(api, artist.token, userGame, 'First look');
    const pressed = await api.get(`/games/${game.id}/generate`, admin.token);
    expect(pressed.status()).toBe(200);
    await waitForStatus(api, game.id, GameStatus.Failed);
    const reason = generationFailureMessage('unreadable_image', 'img/hero.png');

    // The artist: My Games' card, the versions screen and the workbench say it could not be prepared.
    await openWithToken(page, artist.token, '/my-games');
    const card = content(page)
      .locator('.card')
      .filter({ has: page.getByRole('heading', { name: game.name, exact: true }) });
    await expect(card).toContainText(gameReadinessMessages.failed);
    await card.getByRole('link', { name: game.name }).click();
    await expect(content(page)).toContainText(gameReadinessMessages.failedDetail);
    await page.goto(
      `/my-games/versions/workbench?versionId=${version.id}&gameId=${game.id}&userGameId=${userGame.id}`,
    );
    await expect(content(page)).toContainText(gameReadinessMessages.failedDetail);
    await page.goto(
      `/my-games/versions/play?versionId=${version.id}&gameId=${game.id}&userGameId=${userGame.id}`,
    );
    await expect(content(page)).toContainText(gameReadinessMessages.failedDetail);
    await page.waitForLoadState('networkidle');
    await expect(content(page)).not.toContainText(gameReadinessMessages.preparing);
    await expect(page.locator('iframe')).toHaveCount(0);
    // Nothing failed that the page does not already say: no "Could not load" toast (counted now: toasts close by themselves).
    expect(await errorToasts(page).count()).toBe(0);

    // The admin: the inbox has it, in words, linked to the files screen.
    await openWithToken(page, admin.token, '/games');
    const bell = nav(page).getByTestId('inbox-bell');
    await expect(bell).toHaveAccessibleName(/^Inbox: \d+ unread$/);
    await bell.click();
    const inbox = page.getByRole('dialog', { name: /^Inbox/ });
    const event = inbox
      .locator('[data-event-id]')
      .filter({ hasText: `${game.name} could not be generated.` });
    await expect(event).toContainText(reason);
    await inbox.getByRole('button', { name: 'Close' }).click();

    // The games list says why, in words, and offers Gen.
    await page.getByRole('searchbox', { name: 'Search by name' }).fill(game.name);
    const row = gameRow(page, game.name);
    await expect(row).toContainText(`Failed: ${reason}`);
    await expect(row.getByRole('button', { name: 'Gen.' })).toBeEnabled();
    // So does the files screen.
    await page.goto(`/games/game-files?gameId=${game.id}`);
    await expect(content(page)).toContainText(`Status: Failed: ${reason}`);
    await expect(content(page).getByRole('button', { name: 'Gen.' })).toBeEnabled();
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});
