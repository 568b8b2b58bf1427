import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from '@playwright/test';
import { GameStatus, batchMessages, type FileUsage } from '@reskin/contract';
import {
  test,
  expect,
  fileByPath,
  markIndex,
  openWithToken,
  rgbaPng,
  successToast,
  uploadFiles,
  waitForStatus,
  type FilePayload,
} from '../fixtures/games';
import { canvasSized, gameFrame, openPlayTab } from '../fixtures/play';
import { sampleFiles, sampleFolder } from '../fixtures/sample-game';
import { createUserGame, createVersion, deleteUserGame } from '../fixtures/versions';
import { wav, workbenchUrl } from '../fixtures/workbench';

const audioFixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/audio/${name}`, import.meta.url)));

const blue: [number, number, number] = [30, 60, 200];
const red: [number, number, number] = [220, 30, 30];
const ids = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`);
const exact = ids('e', 12);
const doubled = ids('f', 8);

/** An image of one colour in another format (JPEG, WebP), encoded by the browser: the e2e package has no sharp. */
async function encodedImage(
  page: Page,
  type: 'image/jpeg' | 'image/webp',
  colour: number[],
): Promise<Buffer> {
  const bytes = await page.evaluate(
    async ([mime, [r, g, b]]) => {
      const canvas = new OffscreenCanvas(16, 12);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.fillStyle = `rgb(${r}, ${g}, ${b})`;
      context.fillRect(0, 0, 16, 12);
      const blob = await canvas.convertToBlob({ type: mime, quality: 0.95 });
      return Array.from(new Uint8Array(await blob.arrayBuffer()));
    },
    [type, colour] as const,
  );
  return Buffer.from(bytes);
}

function writeTree(root: string, files: Record<string, Buffer | string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Each image's size and the colour at its centre, as the game page shows it. */
function imagesInFrame(frame: Frame, imageIds: string[]) {
  return frame.evaluate(async (list) => {
    const out: Record<string, number[]> = {};
    for (const id of list) {
      const image = document.getElementById(id) as HTMLImageElement;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      context?.drawImage(image, 0, 0);
      const pixel = context?.getImageData(image.naturalWidth >> 1, image.naturalHeight >> 1, 1, 1).data ?? [];
      out[id] = [image.naturalWidth, image.naturalHeight, ...Array.from(pixel).slice(0, 3)];
    }
    return out;
  }, imageIds);
}

/**
 * Each sound as the game fetches it, decoded in the page (Web Audio): the container's own sample rate (from
 * the Vorbis identification header or the MP3 frame header), the decoded channels and duration.
 */
function soundsInFrame(frame: Frame, paths: string[]) {
  return frame.evaluate(async (list) => {
    const nativeRate = (bytes: Uint8Array): number => {
      const text = (at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (text(0, 4) === 'OggS') {
        for (let i = 0; i < bytes.length - 16; i++) {
          if (bytes[i] === 1 && text(i + 1, 6) === 'vorbis') return view.getUint32(i + 12, true);
        }
        return 0;
      }
      let at = 0;
      if (text(0, 3) === 'ID3')
        at =
          10 +
          (((bytes[6]! & 0x7f) << 21) |
            ((bytes[7]! & 0x7f) << 14) |
            ((bytes[8]! & 0x7f) << 7) |
            (bytes[9]! & 0x7f));
      while (at < bytes.length - 4 && !(bytes[at] === 0xff && (bytes[at + 1]! & 0xe0) === 0xe0)) at++;
      const version = (bytes[at + 1]! >> 3) & 3;
      const index = (bytes[at + 2]! >> 2) & 3;
      const rates =
        version === 3 ? [44100, 48000, 32000] : version === 2 ? [22050, 24000, 16000] : [11025, 12000, 8000];
      return rates[index] ?? 0;
    };
    const out: Record<string, { magic: string; rate: number; channels: number; duration: number }> = {};
    for (const path of list) {
      const bytes = new Uint8Array(await (await fetch(path, { cache: 'no-store' })).arrayBuffer());
      const decoded = await new OfflineAudioContext(1, 1, 44100).decodeAudioData(bytes.slice().buffer);
      out[path] = {
        magic: String.fromCharCode(...bytes.subarray(0, 4)),
        rate: nativeRate(bytes),
        channels: decoded.numberOfChannels,
        duration: decoded.duration,
      };
    }
    return out;
  }, paths);
}

test('an artist replaces 30 files from a folder: the plan, ambiguous names resolved, fitted images and converted sounds in Play Your Version', async ({
  page,
  api,
  makeUser,
  makeGame,
}, testInfo) => {
  test.setTimeout(150_000);
  // The game: 12 + 8 PNGs, 2 JPEGs and 2 WebPs of 16 x 12, two names in two folders each, an OGG and two MP3s.
  const owner = await makeUser();
  const game = await makeGame();
  await page.goto('about:blank');
  const original = rgbaPng(16, 12, () => blue);
  const tags = [...exact, ...doubled].map((id) => `<img id="${id}" src="img/${id}.png">`);
  tags.push('<img id="j01" src="img/j01.jpg"><img id="w01" src="img/w01.webp">');
  const files: FilePayload[] = [
    {
      path: 'bq/index.html',
      mimeType: 'text/html',
      buffer: Buffer.from(`<!doctype html><title>batch</title>${tags.join('')}`),
    },
    ...[...exact, ...doubled].map((id) => ({
      path: `bq/img/${id}.png`,
      mimeType: 'image/png',
      buffer: original,
    })),
    ...['j01', 'j02'].map((id) => ({
      path: `bq/img/${id}.jpg`,
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(0),
    })),
    ...['w01', 'w02'].map((id) => ({
      path: `bq/img/${id}.webp`,
      mimeType: 'image/webp',
      buffer: Buffer.alloc(0),
    })),
    ...['a', 'b'].flatMap((folder) =>
      ['icon', 'coin'].map((name) => ({
        path: `bq/ui/${folder}/${name}.png`,
        mimeType: 'image/png',
        buffer: original,
      })),
    ),
    { path: 'bq/sfx/jump.ogg', mimeType: 'audio/ogg', buffer: audioFixture('blip.ogg') },
    { path: 'bq/sfx/hit.mp3', mimeType: 'audio/mpeg', buffer: audioFixture('blip.mp3') },
    { path: 'bq/sfx/chime.mp3', mimeType: 'audio/mpeg', buffer: audioFixture('chime.mp3') },
  ];
  for (const file of files) {
    if (file.mimeType === 'image/jpeg' || file.mimeType === 'image/webp')
      file.buffer = await encodedImage(page, file.mimeType, blue);
  }
  await uploadFiles(api, game.id, files);
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'bq/index.html')).fileId);
  expect((await api.get(`/games/${game.id}/generate`, await api.asAdmin())).status()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  const userGame = await createUserGame(api, { userId: owner.id, gameId: game.id });
  try {
    const version = await createVersion(api, owner.token, userGame, 'From a folder');

    // The artist's export: 12 exact, 8 at 2x, 4 PNGs for the JPEGs and WebPs, 3 WAVs, 2 ambiguous names, 1 unknown.
    const root = testInfo.outputPath('export');
    const replacement = rgbaPng(16, 12, () => red);
    writeTree(root, {
      ...Object.fromEntries(exact.map((id) => [`img/${id}.png`, replacement])),
      ...Object.fromEntries(doubled.map((id) => [`img/${id}.png`, rgbaPng(32, 24, () => red)])),
      ...Object.fromEntries(['j01', 'j02', 'w01', 'w02'].map((id) => [`img/${id}.png`, replacement])),
      'sfx/jump.wav': wav(440, 8000),
      'sfx/hit.wav': wav(660, 8000),
      'sfx/chime.wav': wav(880, 12_000),
      'icon.png': replacement,
      'coin.png': replacement,
      'notes.txt': 'not a game file',
    });

    await openWithToken(page, owner.token, workbenchUrl(version));
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/batch')) uploads.push(request.url());
    });
    await page.locator('#batch-folder-input').setInputFiles(root);

    // The plan, before anything changes.
    const batch = page.getByTestId('batch-replace');
    await expect(batch.getByTestId('batch-summary')).toContainText(
      '30 files: 12 matched, 8 needs fitting, 7 needs converting, 2 ambiguous, 1 unmatched.',
      // The server probes and measures the loudness of the sounds (WebAssembly ffmpeg) before it answers.
      { timeout: 45_000 },
    );
    const versionFiles = await api.get(`/game-versions/files/${version.id}/${game.id}`, owner.token);
    expect(await versionFiles.json()).toEqual([]);
    const row = (path: string) => batch.getByRole('listitem', { name: `export/${path}`, exact: true });
    const show = (status: string) =>
      batch.getByRole('combobox', { name: 'Show status' }).selectOption(status);

    // The sounds: durations side by side (a warning past 10 %), the loudness of both, and matching it.
    await show('needs_conversion');
    await expect(row('sfx/chime.wav').getByTestId('durations')).toContainText(
      /^1\.50 s yours, 1\.0\d s original$/,
    );
    await expect(row('sfx/chime.wav').getByRole('note')).toContainText('differ by more than 10 %');
    await expect(row('sfx/jump.wav').getByTestId('loudness')).toContainText(
      /-?\d+\.\d LUFS yours, -?\d+\.\d LUFS original/,
    );
    await batch.getByLabel("Match the original's loudness").check();

    // An image at 2x: the server's fitted preview beside the original, at the original's size.
    await show('needs_fit');
    await row('img/f01.png').getByRole('button', { name: 'Preview' }).click();
    const fitted = row('img/f01.png').getByRole('img', { name: 'Fitted export/img/f01.png' });
    await expect
      .poll(() => fitted.evaluate((el: HTMLImageElement) => [el.complete, el.naturalWidth, el.naturalHeight]))
      .toEqual([true, 16, 12]);
    await row('img/f02.png')
      .getByRole('combobox', { name: 'Fit for export/img/f02.png' })
      .selectOption('stretch');

    // The two ambiguous names: each one's game file chosen.
    await show('ambiguous');
    for (const name of ['icon', 'coin']) {
      await row(`${name}.png`)
        .getByRole('combobox', { name: `Game file for export/${name}.png` })
        .selectOption({ label: `bq/ui/b/${name}.png` });
    }
    // The plan, then one dry run of each chosen row (decision 0050): nothing applied yet.
    expect(uploads).toHaveLength(3);
    expect(
      await (await api.get(`/game-versions/files/${version.id}/${game.id}`, owner.token)).json(),
    ).toEqual([]);

    // Apply, confirmed: 29 rows (the unknown one cannot be), each with its outcome, and a summary.
    await batch.getByRole('button', { name: 'Apply 29 files' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect(batch.getByRole('status')).toHaveText('Replaced 29 of 29 files.', { timeout: 30_000 });
    await expect(successToast(page, 'Replaced 29 of 29 files.')).toBeVisible();
    await show('matched');
    await expect(row('img/e01.png').getByTestId('row-outcome')).toHaveText('Replaced');
    const replaced = (await (
      await api.get(`/game-versions/files/${version.id}/${game.id}`, owner.token)
    ).json()) as unknown[];
    expect(replaced).toHaveLength(29);

    // Play Your Version: fitted and converted images at the original's size, the sounds converted.
    const frame = await openPlayTab(page, game.name, 'Play Your Version');
    const shown = await imagesInFrame(frame, [...exact.slice(0, 1), ...doubled, 'j01', 'w01']);
    for (const [id, [width, height, r, g, b]] of Object.entries(shown)) {
      expect([width, height], id).toEqual([16, 12]);
      expect(r! > 180 && g! < 80 && b! < 80, `${id} shows the replacement: ${r}, ${g}, ${b}`).toBe(true);
    }
    const sounds = await soundsInFrame(frame, ['sfx/jump.ogg', 'sfx/hit.mp3', 'sfx/chime.mp3']);
    const expected = {
      'sfx/jump.ogg': [22050, 1, 1],
      'sfx/hit.mp3': [22050, 1, 1],
      'sfx/chime.mp3': [44100, 2, 1.5],
    };
    for (const [path, [rate, channels, seconds]] of Object.entries(expected)) {
      const sound = sounds[path];
      expect(sound?.magic, path).toMatch(path.endsWith('.ogg') ? /^OggS$/ : /^(ID3|\xff)/);
      expect([sound?.rate, sound?.channels], path).toEqual([rate, channels]);
      // The WAV's length, give or take an encoder's padding.
      expect(Math.abs((sound?.duration ?? 0) - (seconds ?? 0)), `${path}: ${sound?.duration} s`).toBeLessThan(
        0.08,
      );
    }
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});

const mimeTypes: Record<string, string> = {
  html: 'text/html',
  js: 'text/javascript',
  png: 'image/png',
  jpg: 'image/jpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp3: 'audio/mpeg',
};

test("the plan uses what the game loads and updates after a choice: the sample game's tune in OGG and MP3, the one Chromium plays ranked first, both replaced from one WAV", async ({
  page,
  api,
  makeUser,
  makeGame,
}, testInfo) => {
  test.setTimeout(150_000);
  // A fresh copy of the sample game (its own play record): the tune ships as music.ogg and music.mp3, and the
  // engine loads the first one the browser can play (canPlayType).
  const owner = await makeUser();
  const game = await makeGame();
  const files: FilePayload[] = sampleFiles.map((file) => {
    const path = `star-catcher/${relative(sampleFolder, file).split(sep).join('/')}`;
    return {
      path,
      mimeType: mimeTypes[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
      buffer: readFileSync(file),
    };
  });
  await uploadFiles(api, game.id, files);
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'star-catcher/game/index.html')).fileId);
  expect((await api.get(`/games/${game.id}/generate`, await api.asAdmin())).status()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  const userGame = await createUserGame(api, { userId: owner.id, gameId: game.id });
  const ogg = 'star-catcher/assets/sfx/music.ogg';
  const mp3 = 'star-catcher/assets/sfx/music.mp3';
  try {
    const version = await createVersion(api, owner.token, userGame, 'One tune in two formats');

    // The artist plays the original: Chromium loads the OGG, never the MP3, and the play record says so.
    await openWithToken(page, owner.token, workbenchUrl(version, 'play-original'));
    await canvasSized(await gameFrame(page, `${game.name}: Play Original Game`));
    const usageOf = async (path: string) => {
      const usage = (await (
        await api.get(`/games/${game.id}/usage`, await api.asAdmin())
      ).json()) as FileUsage[];
      return usage.find((file) => file.path === path)?.loads ?? -1;
    };
    await expect.poll(() => usageOf(ogg), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await usageOf(mp3)).toBe(0);

    // The artist's folder: the tune as a 2 s WAV, and the heart at 2x (fitted with the default cover).
    const root = testInfo.outputPath('tune');
    writeTree(root, {
      'music.wav': wav(523, 16_000),
      'assets/img/heart.png': rgbaPng(48, 48, () => red),
    });
    await openWithToken(page, owner.token, workbenchUrl(version));
    await page.locator('#batch-folder-input').setInputFiles(root);
    const batch = page.getByTestId('batch-replace');
    await expect(batch.getByTestId('batch-summary')).toContainText('2 files: 1 needs fitting, 1 ambiguous.', {
      timeout: 45_000,
    });
    const row = (path: string) => batch.getByRole('listitem', { name: `tune/${path}`, exact: true });

    // The heart is fine with the default fit: no error on its row.
    await expect(row('assets/img/heart.png')).toHaveAttribute('data-status', 'needs_fit');
    await expect(row('assets/img/heart.png')).not.toContainText(batchMessages.noFit);
    await expect(row('assets/img/heart.png').locator('.text-danger')).toHaveCount(0);

    // The tune: both formats offered, the one the game loads first and named so.
    const tune = row('music.wav');
    const select = tune.getByRole('combobox', { name: 'Game file for tune/music.wav' });
    await expect(select.locator('option')).toHaveText([
      'Choose the game file…',
      `${ogg} (${batchMessages.gameLoads})`,
      `${mp3} (${batchMessages.notLoaded})`,
    ]);
    await expect(tune).toContainText('Yours: —');
    await select.selectOption({ index: 1 });

    // The server's dry run of that row: no longer ambiguous, the figures and the warning before Apply.
    await expect(tune).toHaveAttribute('data-status', 'needs_conversion', { timeout: 30_000 });
    await expect(batch.getByTestId('batch-summary')).toContainText(
      '2 files: 1 needs fitting, 1 needs converting.',
    );
    await expect(tune).not.toContainText('Ambiguous');
    await expect(tune).not.toContainText(batchMessages.ambiguous);
    await expect(tune).toContainText('Yours: wav, 8000 Hz, 1 ch');
    await expect(tune.getByTestId('durations')).toHaveText(/^2\.00 s yours, 4\.0\d s original$/);
    await expect(tune.getByTestId('loudness')).toHaveText(/-?\d+\.\d LUFS yours, -?\d+\.\d LUFS original/);
    await expect(tune.getByRole('note').first()).toContainText('differ by more than 10 %');
    await expect(tune.getByTestId('usage-note')).toHaveText(`${ogg}: ${batchMessages.gameLoads}`);
    // Its twin, replaced too by default, converted to its own format.
    const twin = tune.getByRole('checkbox', {
      name: `${batchMessages.alsoReplace(mp3)} (${batchMessages.notLoaded})`,
    });
    await expect(twin).toBeChecked();
    await expect(tune.getByTestId('twin-figures')).toHaveText(
      /^Converted to mp3, 22050 Hz, 1 ch \(original: 4\.\d\d s, -?\d+\.\d LUFS\)$/,
    );
    await expect(tune.locator('.text-danger')).toHaveCount(0);

    await batch.getByRole('button', { name: 'Apply 2 files' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    const summary = 'Replaced 2 of 2 files. 1 other format of their sounds replaced too.';
    await expect(batch.getByRole('status')).toHaveText(summary, { timeout: 30_000 });
    await expect(tune.getByTestId('twin-outcome')).toHaveText('Replaced');
    const replaced = (await (
      await api.get(`/game-versions/files/${version.id}/${game.id}`, owner.token)
    ).json()) as { path: string }[];
    expect(replaced.map((file) => file.path).sort()).toEqual(['star-catcher/assets/img/heart.png', mp3, ogg]);

    // Both formats of the tune in Play Your Version: each in its own container at the original's rate, 2 s long.
    const frame = await openPlayTab(page, game.name, 'Play Your Version');
    const sounds = await soundsInFrame(frame, ['../assets/sfx/music.ogg', '../assets/sfx/music.mp3']);
    expect(sounds['../assets/sfx/music.ogg']).toMatchObject({ magic: 'OggS', rate: 22050, channels: 1 });
    expect(sounds['../assets/sfx/music.mp3']?.magic).toMatch(/^(ID3|\xff)/);
    expect(sounds['../assets/sfx/music.mp3']).toMatchObject({ rate: 22050, channels: 1 });
    for (const [path, sound] of Object.entries(sounds)) {
      expect(Math.abs((sound?.duration ?? 0) - 2), `${path}: ${sound?.duration} s`).toBeLessThan(0.08);
    }
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});
