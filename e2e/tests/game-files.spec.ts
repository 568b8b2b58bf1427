import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  RoleType,
  emptyTexts,
  indexRuleMessage,
  limits,
  messages,
  uploadMessages,
  validationMessages,
} from '@reskin/contract';
import {
  test,
  expect,
  dialog,
  errorToast,
  expectOneErrorToast,
  fileByPath,
  fileRow,
  filesOf,
  gameById,
  gif,
  markIndex,
  openGameFiles as openFiles,
  png,
  readyGame,
  rowButton,
  successToast,
  uploadFiles,
} from '../fixtures/games';
import { pauseClock } from '../fixtures/clock';

const uploadRequests = (page: Page, gameId: number) => {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/api/game/upload/${gameId}`)) seen.push(r.url());
  });
  return seen;
};

/** Writes files under `root`, creating the folders. */
function writeTree(root: string, files: Record<string, Buffer | string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

test.describe('admin game files', () => {
  test('[GF-1] a folder chosen through the UI uploads with its folder paths (the folder itself left out, dotfiles skipped), with progress', async ({
    page,
    api,
    makeUser,
    makeGame,
  }, testInfo) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    const root = testInfo.outputPath('mini-game');
    writeTree(root, {
      'index.html': '<!doctype html><title>mini</title><script src="js/app.js"></script>',
      'js/app.js': 'console.log("mini");',
      'img/a.png': png(40, 30),
      'img/deep/b.png': png(12, 8, 2),
      // No game files (decision 0052): skipped, and counted.
      '.DS_Store': 'finder junk',
      '.git/HEAD': 'ref: refs/heads/main',
      'img/.gitignore': '*.psd',
    });
    await openFiles(page, admin, game);
    await expect(page.getByText(emptyTexts.gameFiles, { exact: true })).toBeVisible();
    const requests = uploadRequests(page, game.id);

    await page.locator('#folder-input').setInputFiles(root);
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByText('Uploaded 4 of 4 files.')).toBeVisible();
    await expect(page.getByTestId('upload-skipped')).toHaveText(uploadMessages.skippedFiles(3));
    // The chosen folder's own name is no part of the game's paths: the same rule as a zip's top folder.
    const expected = ['img/a.png', 'img/deep/b.png', 'index.html', 'js/app.js'];
    for (const path of expected) await expect(fileRow(page, path), path).toBeVisible();
    await expect(fileRow(page, 'img/a.png')).toContainText('40 x 30');
    await expect(page.getByRole('heading', { name: 'Game Files (4)' })).toBeVisible();
    // One request: the four files fit in one batch (limits.uploadBatch); a refused file would be named
    // and the others sent again without it.
    expect(requests).toHaveLength(1);
    expect((await filesOf(api, game.id)).map((f) => f.path).sort()).toEqual(expected);

    // The progress resets a while after a successful batch (SPEC §4: 5000 ms).
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 10_000 });

    // A folder the game already has (img/) is a part of its tree: its name stays, and its file is replaced.
    const part = testInfo.outputPath('img');
    writeTree(part, { 'a.png': png(40, 30, 9) });
    await page.locator('#folder-input').setInputFiles(part);
    await expect(page.getByText('Uploaded 1 of 1 files.')).toBeVisible();
    await expect(page.getByTestId('upload-skipped')).toHaveCount(0);
    expect((await filesOf(api, game.id)).map((f) => f.path).sort()).toEqual(expected);
  });

  test('[GF-1] files chosen or dropped go up under their names', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openFiles(page, admin, game);
    await page.locator('#files-input').setInputFiles([
      { name: 'one.js', mimeType: 'text/javascript', buffer: Buffer.from('1') },
      { name: 'two.png', mimeType: 'image/png', buffer: png(5, 5) },
    ]);
    await expect(fileRow(page, 'one.js')).toBeVisible();
    await expect(fileRow(page, 'two.png')).toContainText('5 x 5');

    // A drop on the drop zone (react-dropzone): the browser hands over the files of the drop.
    const transfer = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['body { color: red; }'], 'three.css', { type: 'text/css' }));
      return data;
    });
    const zone = page.getByTestId('drop-zone');
    await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await expect(fileRow(page, 'three.css')).toBeVisible();
    expect((await filesOf(api, game.id)).map((f) => f.path).sort()).toEqual([
      'one.js',
      'three.css',
      'two.png',
    ]);
  });

  test('[GF-1] more than 1000 files at once go in, in batches the server takes', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openFiles(page, admin, game);
    const requests = uploadRequests(page, game.id);
    const count = limits.adminUploadFiles + 1;
    const files = Array.from({ length: count }, (_, i) => ({
      name: `f${i}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(String(i)),
    }));
    await page.locator('#files-input').setInputFiles(files);
    await expect(successToast(page, messages.uploaded)).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(`Uploaded ${count} of ${count} files.`)).toBeVisible();
    expect(await filesOf(api, game.id)).toHaveLength(count);
    expect(requests).toHaveLength(Math.ceil(count / limits.uploadBatch.files));
  });

  test('[GF-1] a single-file replacement keeps the path and fileId and takes exactly one file', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, [{ path: 'art/hero.png', mimeType: 'image/png', buffer: png(40, 30) }]);
    const before = await fileByPath(api, game.id, 'art/hero.png');
    await openFiles(page, admin, game);
    const row = fileRow(page, 'art/hero.png');
    await expect(row).toBeVisible();

    const replacement = png(40, 30, 3);
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith(`/api/game/upload/${game.id}`),
    );
    await row
      .locator('input[type=file]')
      .setInputFiles({ name: 'whatever.png', mimeType: 'image/png', buffer: replacement });
    // Sent like every API call: the bearer token and the XSRF double submit.
    const headers = (await sent).headers();
    expect(headers['authorization']).toBe(`Bearer ${admin.token}`);
    expect(headers['x-xsrf-token']).toBeTruthy();
    expect(headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    const after = await fileByPath(api, game.id, 'art/hero.png');
    expect(after.fileId).toBe(before.fileId);
    expect(after.size).toBe(replacement.length);
    expect(after.size).not.toBe(before.size);
    expect(await filesOf(api, game.id)).toHaveLength(1);

    // The replace input takes one file: it is not a multiple picker.
    await expect(row.locator('input[type=file]')).not.toHaveAttribute('multiple');
  });

  test('[GF-2] Mark index makes the file the start file and clears the flag on the others', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      { path: 'a/index.html', mimeType: 'text/html', buffer: Buffer.from('<p>a</p>') },
      { path: 'b/index.html', mimeType: 'text/html', buffer: Buffer.from('<p>b</p>') },
    ]);
    await markIndex(api, game.id, (await fileByPath(api, game.id, 'a/index.html')).fileId);
    await openFiles(page, admin, game);
    const a = fileRow(page, 'a/index.html');
    const b = fileRow(page, 'b/index.html');
    await expect(a.getByText('Index', { exact: true })).toBeVisible();
    await expect(rowButton(a, 'Mark index')).toBeDisabled();
    await expect(b.getByText('Index', { exact: true })).toHaveCount(0);

    await rowButton(b, 'Mark index').click();
    await expect(b.getByText('Index', { exact: true })).toBeVisible();
    await expect(a.getByText('Index', { exact: true })).toHaveCount(0);
    await expect(rowButton(a, 'Mark index')).toBeEnabled();
    const files = await filesOf(api, game.id);
    expect(files.filter((f) => f.isStartFile).map((f) => f.path)).toEqual(['b/index.html']);
  });

  test('[GF-2] index guard: Mark index only on .html files; another index of a Ready game is asked first, naming both', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      { path: 'tiny/other.html', mimeType: 'text/html', buffer: Buffer.from('<p>other</p>') },
      { path: 'tiny/app.js', mimeType: 'text/javascript', buffer: Buffer.from('1') },
    ]);
    // The tiny game's index.html marked, and generated: Ready.
    await readyGame(api, game);
    await openFiles(page, admin, game);
    await expect(page.getByText('Status: Ready')).toBeVisible();

    // Not a page: no Mark index (the server refuses it too, 422).
    for (const path of ['tiny/img/dot.png', 'tiny/app.js']) {
      await expect(rowButton(fileRow(page, path), 'Mark index'), path).toBeDisabled();
      await expect(fileRow(page, path).locator('span[title]').first()).toHaveAttribute(
        'title',
        indexRuleMessage,
      );
    }
    const other = fileRow(page, 'tiny/other.html');
    const index = fileRow(page, 'tiny/index.html');
    await expect(rowButton(other, 'Mark index')).toBeEnabled();

    // Cancel keeps the start file.
    await rowButton(other, 'Mark index').click();
    await expect(dialog(page)).toContainText(
      messages.confirmSwitchIndex('tiny/index.html', 'tiny/other.html'),
    );
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(index.getByText('Index', { exact: true })).toBeVisible();
    expect((await filesOf(api, game.id)).filter((f) => f.isStartFile).map((f) => f.path)).toEqual([
      'tiny/index.html',
    ]);

    // Confirm switches it.
    await rowButton(other, 'Mark index').click();
    await dialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect(other.getByText('Index', { exact: true })).toBeVisible();
    await expect(index.getByText('Index', { exact: true })).toHaveCount(0);
    expect((await filesOf(api, game.id)).filter((f) => f.isStartFile).map((f) => f.path)).toEqual([
      'tiny/other.html',
    ]);
  });

  test('[GF-3] Mark splash toasts Splash updated successfully. and sets the game image', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      { path: 'img/splash.png', mimeType: 'image/png', buffer: png(30, 20) },
      { path: 'main.js', mimeType: 'text/javascript', buffer: Buffer.from('1') },
    ]);
    await openFiles(page, admin, game);
    const row = fileRow(page, 'img/splash.png');
    // Only images can be the splash.
    await expect(rowButton(fileRow(page, 'main.js'), 'Mark splash')).toBeDisabled();
    await rowButton(row, 'Mark splash').click();
    await expect(successToast(page, messages.splashUpdated)).toBeVisible();
    await expect(row.getByText('Splash', { exact: true })).toBeVisible();
    expect((await gameById(api, game.id)).imagePath).toBe('img/splash.png');
    expect((await fileByPath(api, game.id, 'img/splash.png')).isSplash).toBe(true);
  });

  test('[GF-4] Delete asks ...this file?, deletes, and toasts File deleted successfully.', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      { path: 'keep.js', mimeType: 'text/javascript', buffer: Buffer.from('1') },
      { path: 'drop.js', mimeType: 'text/javascript', buffer: Buffer.from('2') },
    ]);
    await openFiles(page, admin, game);
    const row = fileRow(page, 'drop.js');
    await rowButton(row, 'Delete').click();
    await expect(dialog(page)).toContainText(messages.confirmDeleteFile);
    await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog(page)).toHaveCount(0);
    await expect(row).toBeVisible();
    expect(await filesOf(api, game.id)).toHaveLength(2);

    await rowButton(row, 'Delete').click();
    await expect(dialog(page)).toContainText(messages.confirmDeleteFile);
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.fileDeleted)).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(fileRow(page, 'keep.js')).toBeVisible();
    expect((await filesOf(api, game.id)).map((f) => f.path)).toEqual(['keep.js']);
  });

  test('[GF-5][ERR-1] a png replacement of another size is refused with Original Size W x H Loaded Size W x H, in one toast titled Upload failed', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, [{ path: 'img/bird.png', mimeType: 'image/png', buffer: png(40, 30) }]);
    const before = await fileByPath(api, game.id, 'img/bird.png');
    await page.clock.install();
    await openFiles(page, admin, game);
    const row = fileRow(page, 'img/bird.png');
    await row
      .locator('input[type=file]')
      .setInputFiles({ name: 'bird.png', mimeType: 'image/png', buffer: png(41, 30) });
    const message = validationMessages.imageSize({ width: 40, height: 30 }, { width: 41, height: 30 });
    expect(message).toBe('Original Size 40 x 30 Loaded Size 41 x 30');
    await expect(errorToast(page, message)).toBeVisible();
    // The page's clock stands still from here, so the toast cannot close by time before it is read. One
    // toast titled in words (the server's 422 VALIDATION_FAILED stays in the envelope and the console).
    await pauseClock(page);
    await expectOneErrorToast(page, { title: 'Upload failed', text: message });
    const errors = page.getByRole('alert').filter({ hasText: 'Not uploaded' });
    await expect(errors).toContainText('img/bird.png');
    await expect(errors).toContainText(message);
    await expect(row).toContainText('40 x 30');
    const after = await fileByPath(api, game.id, 'img/bird.png');
    expect(after).toEqual(before);
  });

  test('[GF-5] other types are replaced without checks: a .js and a .gif of another size', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await uploadFiles(api, game.id, [
      { path: 'js/game.js', mimeType: 'text/javascript', buffer: Buffer.from('var v = 1;') },
      { path: 'img/anim.gif', mimeType: 'image/gif', buffer: gif(10, 10) },
    ]);
    const js = await fileByPath(api, game.id, 'js/game.js');
    const anim = await fileByPath(api, game.id, 'img/anim.gif');
    expect([anim.width, anim.height]).toEqual([10, 10]);
    await openFiles(page, admin, game);

    const newJs = Buffer.from('var v = 2; // a longer replacement');
    await fileRow(page, 'js/game.js').locator('input[type=file]').setInputFiles({
      name: 'other-name.js',
      mimeType: 'text/javascript',
      buffer: newJs,
    });
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    await expect.poll(async () => (await fileByPath(api, game.id, 'js/game.js')).size).toBe(newJs.length);
    expect((await fileByPath(api, game.id, 'js/game.js')).fileId).toBe(js.fileId);

    await fileRow(page, 'img/anim.gif')
      .locator('input[type=file]')
      .setInputFiles({
        name: 'anim.gif',
        mimeType: 'image/gif',
        buffer: gif(20, 5),
      });
    await expect(fileRow(page, 'img/anim.gif')).toContainText('20 x 5');
    const replaced = await fileByPath(api, game.id, 'img/anim.gif');
    expect(replaced).toMatchObject({ fileId: anim.fileId, width: 20, height: 5 });
    await expect(errorToast(page, /./)).toHaveCount(0);
  });

  test('[GF-6] a fresh game shows the empty state', async ({ page, makeUser, makeGame }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openFiles(page, admin, game);
    await expect(page.getByText(emptyTexts.gameFiles, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Game Files (0)' })).toBeVisible();
    await expect(page.getByText(emptyTexts.helperFiles, { exact: true })).toBeVisible();
    // Back to the games list.
    await page.getByRole('link', { name: 'Back to games' }).click();
    await expect(page).toHaveURL(/\/games$/);
  });

  test('[GF-1] the files list searches by path, sorts by a column header and pages through POST /games/{id}/files/filter', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    // 30 files: a page and a bit at the default page size of 25.
    const paths = Array.from(
      { length: 30 },
      (_, i) => `${i % 2 ? 'odd' : 'even'}/f${String(i).padStart(2, '0')}.js`,
    );
    await uploadFiles(
      api,
      game.id,
      paths.map((path) => ({ path, mimeType: 'text/javascript', buffer: Buffer.from(`// ${path}`) })),
    );
    const sorted = [...paths].sort();
    const shownPaths = () => page.locator('tbody tr td code');

    const filter = page.waitForRequest((r) => r.url().endsWith(`/api/games/${game.id}/files/filter`));
    await openFiles(page, admin, game);
    expect((await filter).postDataJSON()).toEqual({ order: 'path ASC', limit: 25, skip: 0 });
    await expect(page.getByRole('heading', { name: 'Game Files (30)' })).toBeVisible();
    await expect(page.getByText('30 items', { exact: true })).toBeVisible();
    await expect(shownPaths()).toHaveText(sorted.slice(0, 25));
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Page 2 of 2', { exact: true })).toBeVisible();
    await expect(shownPaths()).toHaveText(sorted.slice(25));

    // Sorting starts again on page 1; the header says its direction.
    const pathHeader = page.getByRole('columnheader', { name: 'Path' });
    await pathHeader.getByRole('button').click();
    await expect(pathHeader).toHaveAttribute('aria-sort', 'ascending');
    await pathHeader.getByRole('button').click();
    await expect(pathHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByText('Page 1 of 2', { exact: true })).toBeVisible();
    await expect(shownPaths()).toHaveText([...sorted].reverse().slice(0, 25));

    await page.getByRole('searchbox', { name: 'Search by path' }).fill('odd/');
    await expect(page.getByRole('heading', { name: 'Game Files (15)' })).toBeVisible();
    await expect(shownPaths()).toHaveText(sorted.filter((path) => path.startsWith('odd/')).reverse());
    await page.getByRole('searchbox', { name: 'Search by path' }).fill('no-such-file');
    await expect(page.getByText('No results for "no-such-file".', { exact: true })).toBeVisible();
    await expect(page.getByText(emptyTexts.gameFiles, { exact: true })).toHaveCount(0);
  });

  test('helper files: upload, download through the listed link, delete (DESIGN.md "Games, files, variants")', async ({
    page,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    await openFiles(page, admin, game);
    await expect(page.getByText(emptyTexts.helperFiles, { exact: true })).toBeVisible();
    const content = 'Use the palette of the original.';
    await page.locator('#helper-input').setInputFiles({
      name: 'style-guide.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(content),
    });
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    const link = page.getByRole('link', { name: 'style-guide.txt' });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('target', '_blank');
    // The link carries its own download ticket: it works without the session's Authorization header.
    const href = await link.getAttribute('href');
    expect(href).toMatch(/ticket=/);
    const download = await page.request.get(href ?? '');
    expect(download.status()).toBe(200);
    expect(await download.text()).toBe(content);
    // Helper files are not game files.
    await expect(page.getByText(emptyTexts.gameFiles, { exact: true })).toBeVisible();

    await page
      .getByRole('row')
      .filter({ has: link })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expect(dialog(page)).toContainText(messages.confirmDeleteFile);
    await dialog(page).getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(successToast(page, messages.fileDeleted)).toBeVisible();
    await expect(link).toHaveCount(0);
    await expect(page.getByText(emptyTexts.helperFiles, { exact: true })).toBeVisible();
  });
});
