import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { GameStatus, messages, validationMessages, type GameAtlases } from '@reskin/contract';
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
import { drawnPixel, openPlayTab } from '../fixtures/play';
import { createUserGame, createVersion, deleteUserGame, solidPng } from '../fixtures/versions';
import { workbenchUrl } from '../fixtures/workbench';

/**
 * A real game library from npm (Pixi v8, with the Spine runtime's `.atlas` loader) draws
 * sprites from a TexturePacker atlas and from a Spine/libGDX atlas; the artist replaces one frame in the
 * workbench, and Play Your Version shows the new pixels at that sprite's place while its neighbour is unchanged (the
 * watermarked neighbour: an artist never gets the original sheet's pixels, decision 0049).
 */

const require = createRequire(import.meta.url);
/** A library's browser bundle, as the game would ship it (from the package's folder: its exports name no bundles). */
function bundle(name: string, file: string): Buffer {
  const folder = (require.resolve.paths(name) ?? [])
    .map((root) => join(root, name))
    .find((dir) => existsSync(join(dir, 'package.json')));
  if (!folder) throw new Error(`${name} is not installed`);
  return readFileSync(join(folder, file));
}

type Rgb = [number, number, number];
const padding: Rgb = [40, 40, 40];
const colours = {
  red: [220, 30, 30],
  green: [30, 200, 60],
  gem: [40, 80, 230],
  coin: [240, 210, 40],
} satisfies Record<string, Rgb>;
const newGem: Rgb = [230, 40, 200];

/** A 40 x 20 sheet with two 16 x 16 frames, at (2, 2) and (22, 2), on a grey padding. */
function sheet(left: Rgb, right: Rgb): Buffer {
  return rgbaPng(40, 20, (x, y) => {
    if (y < 2 || y >= 18) return padding;
    if (x >= 2 && x < 18) return left;
    if (x >= 22 && x < 38) return right;
    return padding;
  });
}

const frameAt = (x: number) => ({
  frame: { x, y: 2, w: 16, h: 16 },
  rotated: false,
  trimmed: false,
  spriteSourceSize: { x: 0, y: 0, w: 16, h: 16 },
  sourceSize: { w: 16, h: 16 },
});

/** Where the game draws each sprite (its top left); the sprite's centre is 8 px further. */
const places = { red: [10, 10], green: [40, 10], gem: [10, 50], coin: [40, 50] } as const;

// The game: Pixi's canvas renderer (no GPU here), a TexturePacker JSON hash loaded by Pixi's own spritesheet
// loader and a libGDX / Spine 4 `.atlas` loaded by the Spine runtime's atlas loader, four sprites at known places.
const gameScript = `
(async () => {
  const app = new PIXI.Application();
  await app.init({ width: 300, height: 400, background: '#000000', preference: 'canvas', antialias: false });
  document.body.appendChild(app.canvas);
  const heroes = await PIXI.Assets.load('img/heroes.json');
  const items = await PIXI.Assets.load('img/items.atlas');
  const region = (name) => {
    const found = items.findRegion(name);
    return new PIXI.Texture({
      source: found.page.texture.texture.source,
      frame: new PIXI.Rectangle(found.x, found.y, found.width, found.height),
    });
  };
  const places = ${JSON.stringify(places)};
  const textures = { red: heroes.textures['red.png'], green: heroes.textures['green.png'], gem: region('gem'), coin: region('coin') };
  for (const [name, [x, y]] of Object.entries(places)) {
    const sprite = new PIXI.Sprite(textures[name]);
    sprite.position.set(x, y);
    app.stage.addChild(sprite);
  }
})();
`;

function atlasGame(folder: string): FilePayload[] {
  const texturePacker = {
    frames: { 'red.png': frameAt(2), 'green.png': frameAt(22) },
    meta: {
      app: 'https://www.codeandweb.com/texturepacker',
      image: 'heroes.png',
      format: 'RGBA8888',
      size: { w: 40, h: 20 },
      scale: '1',
    },
  };
  const libgdx = [
    'items.png',
    'size: 40, 20',
    'filter: Nearest, Nearest',
    'gem',
    'bounds: 2, 2, 16, 16',
    'coin',
    'bounds: 22, 2, 16, 16',
    '',
  ].join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>atlas game</title>
<style>body { margin: 0; background: #000; }</style></head><body>
<script src="lib/pixi.min.js"></script><script src="lib/spine-pixi-v8.min.js"></script><script src="game.js"></script>
</body></html>`;
  return [
    { path: `${folder}/index.html`, mimeType: 'text/html', buffer: Buffer.from(html) },
    { path: `${folder}/game.js`, mimeType: 'text/javascript', buffer: Buffer.from(gameScript) },
    {
      path: `${folder}/lib/pixi.min.js`,
      mimeType: 'text/javascript',
      buffer: bundle('pixi.js', 'dist/pixi.min.js'),
    },
    {
      path: `${folder}/lib/spine-pixi-v8.min.js`,
      mimeType: 'text/javascript',
      buffer: bundle('@esotericsoftware/spine-pixi-v8', 'dist/iife/spine-pixi-v8.min.js'),
    },
    {
      path: `${folder}/img/heroes.json`,
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(texturePacker)),
    },
    { path: `${folder}/img/heroes.png`, mimeType: 'image/png', buffer: sheet(colours.red, colours.green) },
    { path: `${folder}/img/items.atlas`, mimeType: 'text/plain', buffer: Buffer.from(libgdx) },
    { path: `${folder}/img/items.png`, mimeType: 'image/png', buffer: sheet(colours.gem, colours.coin) },
  ];
}

test('a frame replaced in the workbench shows in Play Your Version of a Pixi game drawing from a TexturePacker and a libGDX atlas', async ({
  page,
  api,
  makeGame,
  makeUser,
}) => {
  test.setTimeout(120_000);
  const game = await makeGame({ width: 300, height: 400 });
  await uploadFiles(api, game.id, atlasGame('atlas-game'));
  await markIndex(api, game.id, (await fileByPath(api, game.id, 'atlas-game/index.html')).fileId);
  const generated = await api.get(`/games/${game.id}/generate`, await api.asAdmin());
  expect(generated.status(), await generated.text()).toBe(200);
  await waitForStatus(api, game.id, GameStatus.Ready);
  const found = (await (
    await api.get(`/games/${game.id}/atlases`, await api.asAdmin())
  ).json()) as GameAtlases;
  expect(found.problems).toEqual([]);
  expect(found.atlases.map((atlas) => atlas.format).sort()).toEqual(['libgdx', 'texturepacker-hash']);

  const owner = await makeUser();
  const userGame = await createUserGame(api, { userId: owner.id, gameId: game.id });
  try {
    const version = await createVersion(api, owner.token, userGame, 'Frames version');
    await openWithToken(page, owner.token, workbenchUrl(version, 'files'));

    // Each sheet is the group of its frames, named as the descriptors name them.
    const items = page.getByRole('region', { name: 'Frames of atlas-game/img/items.png', exact: true });
    const heroes = page.getByRole('region', { name: 'Frames of atlas-game/img/heroes.png', exact: true });
    const gem = items.getByRole('group', { name: 'Frame gem', exact: true });
    await expect(gem.getByRole('img', { name: 'Original frame gem' })).toBeVisible();
    await expect(items.getByRole('group', { name: 'Frame coin', exact: true })).toBeVisible();
    await expect(heroes.getByRole('group', { name: /^Frame (red|green)\.png$/ })).toHaveCount(2);

    // The filter box narrows the frames by name.
    await items.getByRole('searchbox').fill('co');
    await expect(gem).toHaveCount(0);
    await expect(items).toContainText('1 of 2 frames');
    await items.getByRole('searchbox').fill('');
    await expect(gem).toBeVisible();

    // A replacement of another size is refused in the browser, naming the frame's size.
    const gemInput = gem.locator('input[type="file"][aria-label="Replace frame gem"]');
    const wrongSize = validationMessages.frameSize('gem', { w: 16, h: 16 }, { width: 20, height: 16 });
    await gemInput.setInputFiles({
      name: 'gem.png',
      mimeType: 'image/png',
      buffer: solidPng(20, 16, newGem),
    });
    await expect(gem.getByRole('alert')).toHaveText(wrongSize);

    // The artist picks a new gem of the frame's size: it is composed into the version's sheet.
    await gemInput.setInputFiles({
      name: 'gem.png',
      mimeType: 'image/png',
      buffer: solidPng(16, 16, newGem),
    });
    await expect(successToast(page, messages.uploaded)).toBeVisible();
    await expect(gem.getByRole('img', { name: 'Your frame gem' })).toBeVisible();
    await page.reload();
    await expect(gem.getByRole('img', { name: 'Your frame gem' })).toBeVisible();
    await expect(items).toContainText('2 frames, 1 replaced');

    // Play Your Version: the new pixels at the gem's place; its neighbour on the same sheet is the watermarked coin,
    // as the artist's watermarked view draws it, never the original one (only admins see originals: decision 0049).
    const frame = await openPlayTab(page, game.name, 'Play Your Version');
    const centre = (name: keyof typeof places) => [places[name][0] + 8, places[name][1] + 8] as const;
    await expect.poll(() => drawnPixel(frame, ...centre('gem')), { timeout: 30_000 }).toEqual(newGem);
    const coin = await drawnPixel(frame, ...centre('coin'));
    expect(coin).not.toEqual(colours.coin);
    // The TexturePacker sprites are drawn too (the watermarked view for sheets the version did not change).
    expect(await drawnPixel(frame, ...centre('red'))).not.toEqual(padding);
    const watermarked = await openPlayTab(page, game.name, 'Play Original Game');
    await expect.poll(() => drawnPixel(watermarked, ...centre('coin')), { timeout: 30_000 }).toEqual(coin);

    // Restore original, per frame: asked first, then the version's gem is the original one again.
    await page.getByRole('tab', { name: 'Files', exact: true }).click();
    await gem.getByRole('button', { name: 'Restore original', exact: true }).click();
    const question = messages.confirmRestoreFrame('gem', 'atlas-game/img/items.png');
    await page
      .getByRole('dialog')
      .filter({ hasText: question })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await expect(successToast(page, messages.originalRestored)).toBeVisible();
    await expect(gem.getByRole('img', { name: 'Your frame gem' })).toHaveCount(0);
    const replayed = await openPlayTab(page, game.name, 'Play Your Version');
    await expect.poll(() => drawnPixel(replayed, ...centre('gem')), { timeout: 30_000 }).not.toEqual(newGem);
  } finally {
    await deleteUserGame(api, userGame.id);
  }
});
