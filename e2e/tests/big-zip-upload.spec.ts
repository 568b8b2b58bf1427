import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Page } from '@playwright/test';
import { ZipFile } from 'yazl';
import { GameStatus, RoleType, limits, messages, uploadMessages } from '@reskin/contract';
import {
  test,
  expect,
  errorToast,
  filesOf,
  gameById,
  openGameFiles,
  png,
  successToast,
  waitForStatus,
} from '../fixtures/games';
import { sampleFiles, sampleFolder } from '../fixtures/sample-game';

// Decision 0039: A game of 1,552 files chosen as one zip goes in through the UI. The zip has more entries
// than one request of the server takes, so the browser reads its central directory, unpacks it entry by entry and
// sends it in batches to the folder route; a zip the server would refuse for its declared sizes is refused in the
// browser before any request.

const bigGameFiles = 1552;

async function zipBuffer(zip: ZipFile): Promise<Buffer> {
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A studio-like game of `bigGameFiles` files in its top folder `big-game/`: the sample game (an index page, a
 * script, images, sounds) plus levels as JSON, scripts and sprites as real PNGs, a few MB in all.
 */
async function bigGameZip(): Promise<{ zip: Buffer; paths: string[] }> {
  const zip = new ZipFile();
  const paths: string[] = [];
  const add = (buffer: Buffer, path: string) => {
    zip.addBuffer(buffer, `big-game/${path}`, { compress: !path.endsWith('.png') });
    paths.push(path);
  };
  for (const file of sampleFiles) add(readFileSync(file), relative(sampleFolder, file).split(sep).join('/'));
  let i = 0;
  while (paths.length < bigGameFiles) {
    const kind = i % 4;
    if (kind === 0) add(png(16 + (i % 48), 16 + ((i * 7) % 48), i % 5), `assets/sprites/s${i}.png`);
    else if (kind === 1)
      add(
        Buffer.from(JSON.stringify({ level: i, tiles: Array.from({ length: 64 }, (_, t) => (t * i) % 9) })),
        `data/levels/l${i}.json`,
      );
    else add(Buffer.from(`// module ${i}\nexport const value${i} = ${i};\n`), `lib/modules/m${i}.js`);
    i++;
  }
  return { zip: await zipBuffer(zip), paths };
}

/** The POSTs of the upload routes (folder and zip) for one game. */
function uploadRequests(page: Page, gameId: number) {
  const seen = { folder: 0, zip: 0 };
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    if (request.url().endsWith(`/api/game/upload/${gameId}`)) seen.folder++;
    if (request.url().endsWith(`/api/game/upload-zip/${gameId}`)) seen.zip++;
  });
  return seen;
}

test.describe('admin game files: a big game as one zip', () => {
  test('[GF-1] a zip of 1,552 files goes in through the UI in batches, with progress, and the game generates', async ({
    page,
    api,
    makeUser,
    makeGame,
  }, testInfo) => {
    test.setTimeout(240_000);
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame({ width: 640, height: 480, description: 'A game of 1,552 files' });
    const { zip, paths } = await bigGameZip();
    expect(paths).toHaveLength(bigGameFiles);
    expect(bigGameFiles).toBeGreaterThan(limits.adminUploadFiles);

    await openGameFiles(page, admin, game);
    const requests = uploadRequests(page, game.id);
    const status = page.getByRole('status');
    const started = Date.now();
    await page
      .locator('#zip-input')
      .setInputFiles({ name: 'big-game.zip', mimeType: 'application/zip', buffer: zip });

    // Progress over the whole game, file by file as the batches are stored.
    await expect(status).toContainText(
      new RegExp(`Uploading \\d+ of ${bigGameFiles} files from big-game\\.zip`),
    );
    await expect(page.getByRole('progressbar')).toBeVisible();
    await expect(successToast(page, messages.uploaded)).toBeVisible({ timeout: 180_000 });
    const seconds = (Date.now() - started) / 1000;
    await expect(status).toContainText(
      `Uploaded ${bigGameFiles} of ${bigGameFiles} files from big-game.zip (unpacked in the browser).`,
    );
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    // Every file is in, under the zip's paths without the top folder, as the zip route would have stored them.
    const stored = await filesOf(api, game.id);
    expect(stored).toHaveLength(bigGameFiles);
    expect(stored.map((file) => file.path).sort()).toEqual([...paths].sort());
    // Sent in batches the folder route takes, never to the zip route.
    expect(requests.zip).toBe(0);
    expect(requests.folder).toBe(Math.ceil(bigGameFiles / limits.uploadBatch.files));
    testInfo.annotations.push({
      type: 'measure',
      description: `${bigGameFiles} files, ${(zip.length / 1024 / 1024).toFixed(1)} MB zip: ${seconds.toFixed(1)} s through the UI, ${requests.folder} requests`,
    });
    console.log(testInfo.annotations.at(-1)?.description);

    // The server marked the index; the game generates.
    expect(stored.find((file) => file.path === 'game/index.html')?.isStartFile).toBe(true);
    const generate = await api.get(`/games/${game.id}/generate`, await api.asAdmin());
    expect(generate.status(), await generate.text()).toBe(200);
    await waitForStatus(api, game.id, GameStatus.Ready, 180_000);
    expect((await gameById(api, game.id)).gameStatusTypeId).toBe(GameStatus.Ready);
  });

  test('[GF-1] a zip that declares more unpacked bytes than the limit is refused in the browser, before any request', async ({
    page,
    api,
    makeUser,
    makeGame,
  }) => {
    const admin = await makeUser(RoleType.Admin);
    const game = await makeGame();
    // Entries just under the size from which the ratio is checked, enough of them to declare more than the total.
    const declaredEach = limits.zipUpload.ratioMinBytes - 1;
    const count = Math.ceil(limits.zipUpload.maxUnpackedBytes / declaredEach) + 1;
    const zip = new ZipFile();
    for (let i = 0; i < count; i++) zip.addBuffer(Buffer.from(`part ${i}`), `bomb/part-${i}.txt`);
    const bytes = await zipBuffer(zip);
    // Every central directory record now declares `declaredEach` unpacked bytes.
    let records = 0;
    for (
      let at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      at >= 0;
      at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
    ) {
      bytes.writeUInt32LE(declaredEach, at + 24);
      records++;
    }
    expect(records).toBe(count);

    await openGameFiles(page, admin, game);
    const requests = uploadRequests(page, game.id);
    await page
      .locator('#zip-input')
      .setInputFiles({ name: 'bomb.zip', mimeType: 'application/zip', buffer: bytes });
    await expect(errorToast(page, uploadMessages.zipUnpackedTotal)).toBeVisible();
    expect(uploadMessages.zipUnpackedTotal).toBe('The zip unpacks to more than 2 GB.');
    await expect(page.getByRole('alert').filter({ hasText: 'Not uploaded:' })).toContainText(
      uploadMessages.zipUnpackedTotal,
    );
    await expect(page.getByRole('status').filter({ hasText: 'bomb.zip was not uploaded' })).toBeVisible();
    expect(requests).toEqual({ folder: 0, zip: 0 });
    expect(await filesOf(api, game.id)).toEqual([]);
  });
});
