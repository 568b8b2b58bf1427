import { RoleType, atlasTexts, type Game } from '@reskin/contract';
import type { Locator } from '@playwright/test';
import {
  test,
  expect,
  dialog,
  fileByPath,
  fileRow,
  openGameFiles,
  openWithToken,
  readyGame,
  rgbaPng,
  rowButton,
  successToast,
  uploadFiles,
  type Api,
} from '../fixtures/games';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';

/**
 * The admin's screens for sprite sheets: the game files screen shows which images are sprite sheets and which descriptors
 * are not used, with why, and declares grids; the version review shows a replaced frame beside its original.
 */

const blue: [number, number, number] = [20, 60, 220];
const green: [number, number, number] = [20, 200, 60];
const red: [number, number, number] = [230, 20, 20];

/**
 * sheet.png: 16×16 frames "left" (blue) and "right" (green), and "turned", a 16×8 sprite red on its left half and
 * blue on its right, stored turned 90° clockwise in the 8×16 column at x 32 (red on top), named by a TexturePacker
 * JSON hash.
 */
const sheetFiles = [
  {
    path: 'sheets/sheet.png',
    mimeType: 'image/png',
    buffer: rgbaPng(40, 16, (x, y) => (x < 16 ? blue : x < 32 ? green : y < 8 ? red : blue)),
  },
  {
    path: 'sheets/sheet.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({
        frames: {
          left: { frame: { x: 0, y: 0, w: 16, h: 16 } },
          right: { frame: { x: 16, y: 0, w: 16, h: 16 } },
          turned: { frame: { x: 32, y: 0, w: 16, h: 8 }, rotated: true, sourceSize: { w: 16, h: 8 } },
        },
        meta: { image: 'sheet.png', size: { w: 40, h: 16 } },
      }),
    ),
  },
];

/**
 * The colours at the middle of a drawn frame's left quarter, middle and right quarter, as the browser shows them:
 * a screenshot of the frame, read back in the page (a data: URL taints no canvas; the sheet's own canvas is).
 */
async function colours(frame: Locator): Promise<number[][]> {
  await expect(frame).toHaveAttribute('data-state', 'drawn');
  const shot = `data:image/png;base64,${(await frame.screenshot()).toString('base64')}`;
  return frame.page().evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [image.width, image.height];
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    return [0.25, 0.5, 0.75].map((along) => [
      ...context
        .getImageData(Math.floor(image.width * along), Math.floor(image.height / 2), 1, 1)
        .data.slice(0, 3),
    ]);
  }, shot);
}

async function sheetGame(api: Api, makeGame: () => Promise<Game>): Promise<Game> {
  const game = await makeGame();
  await uploadFiles(api, game.id, [
    ...sheetFiles,
    {
      path: 'sheets/broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify({
          frames: { a: { frame: { x: 0, y: 0, w: 4, h: 4 } } },
          meta: { image: 'nowhere.png' },
        }),
      ),
    },
    {
      path: 'sheets/strip.png',
      mimeType: 'image/png',
      buffer: rgbaPng(48, 16, (x) => (x < 16 ? red : x < 32 ? green : blue)),
    },
  ]);
  return game;
}

test.describe('sprite sheets on the admin screens', () => {
  test('the game files screen badges sprite sheets, says why a descriptor is not used, and a declared grid makes a sheet', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await sheetGame(api, makeGame);
    await openGameFiles(page, admin, game);

    await expect(fileRow(page, 'sheets/sheet.png').getByTestId('sheet-badge')).toHaveText(
      atlasTexts.sheetBadge(3, 'texturepacker-hash'),
    );
    await expect(fileRow(page, 'sheets/broken.json').getByTestId('sheet-problem')).toHaveText(
      atlasTexts.notUsed('Its image sheets/nowhere.png is not in the game.'),
    );
    await page.getByRole('button', { name: 'Find sprite sheets', exact: true }).click();
    await expect(successToast(page, atlasTexts.found(1, 1))).toBeVisible();

    const strip = fileRow(page, 'sheets/strip.png');
    await expect(strip.getByTestId('sheet-badge')).toHaveCount(0);
    await rowButton(strip, 'Declare grid').click();
    const form = dialog(page);
    await form.getByLabel('Frame width (px)').fill('16');
    await form.getByLabel('Frame height (px)').fill('16');
    await expect(form.getByTestId('grid-count')).toHaveText(atlasTexts.gridCount(3));
    await form.getByLabel('Margin (px)').fill('9');
    await expect(form.getByTestId('grid-count')).toHaveText(
      'A 16×16 frame with a margin of 9 px does not fit in the 48×16 image.',
    );
    await form.getByLabel('Margin (px)').fill('0');
    await form.getByRole('button', { name: 'Declare grid', exact: true }).click();
    await expect(successToast(page, atlasTexts.gridDeclared('sheets/strip.png', 3))).toBeVisible();
    await expect(strip.getByTestId('sheet-badge')).toHaveText(atlasTexts.sheetBadge(3, 'grid'));
    // After a reload the grid is still there (it is the server's), and it can be removed.
    await page.reload();
    await expect(strip.getByTestId('sheet-badge')).toHaveText(atlasTexts.sheetBadge(3, 'grid'));
    await rowButton(strip, 'Remove grid').click();
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, atlasTexts.gridRemoved('sheets/strip.png'))).toBeVisible();
    await expect(strip.getByTestId('sheet-badge')).toHaveCount(0);
  });

  test("the admin's version review shows a replaced frame beside its original", async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const artist = await makeUser();
    const game = await sheetGame(api, makeGame);
    await readyGame(api, game);
    const userGame = await createUserGame(api, { userId: artist.id, gameId: game.id });
    try {
      const version = await createVersion(api, artist.token, userGame, 'Red right');
      const sheet = await fileByPath(api, game.id, 'sheets/sheet.png');
      const replaced = await api.postMultipart(
        `/game-version/upload-frame/${version.id}/${sheet.fileId}`,
        {
          frame: 'right',
          file: { name: 'right.png', mimeType: 'image/png', buffer: rgbaPng(16, 16, () => red) },
        },
        artist.token,
      );
      expect(replaced.status(), await replaced.text()).toBe(200);
      const turned = await api.postMultipart(
        `/game-version/upload-frame/${version.id}/${sheet.fileId}`,
        {
          frame: 'turned',
          file: {
            name: 'turned.png',
            mimeType: 'image/png',
            buffer: rgbaPng(16, 8, (x) => (x < 8 ? green : red)),
          },
        },
        artist.token,
      );
      expect(turned.status(), await turned.text()).toBe(200);

      await openWithToken(
        page,
        admin.token,
        `/user-game-list/game-versions/files?versionId=${version.id}&gameId=${game.id}&userGameId=${userGame.id}`,
      );
      const frame = page.getByTestId('replaced-frame').filter({ hasText: 'right' });
      await expect(frame).toHaveCount(1);
      expect(await colours(frame.getByRole('img', { name: 'Original frame right' }))).toEqual([
        green,
        green,
        green,
      ]);
      expect(await colours(frame.getByRole('img', { name: 'Version frame right' }))).toEqual([red, red, red]);
      // A frame stored turned is shown upright, the original's and the version's alike.
      const upright = page.getByTestId('replaced-frame').filter({ hasText: 'turned' });
      const [left, , right] = await colours(upright.getByRole('img', { name: 'Original frame turned' }));
      expect([left, right]).toEqual([red, blue]);
      const [newLeft, , newRight] = await colours(upright.getByRole('img', { name: 'Version frame turned' }));
      expect([newLeft, newRight]).toEqual([green, red]);
    } finally {
      await deleteUserGame(api, userGame.id);
    }
  });
});
