import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { AtlasFrame } from '@reskin/contract';
import { parseAtlasDescriptor } from '../../atlases/atlas-parsers';
import { decodePixels } from '../../../lib/images/pixels';
import { composeSheet, dropsVisiblePixels } from './compose-sheet';

const decoded = (png: Buffer) => decodePixels(png, 'png');

/**
 * Composition tests: for each descriptor format, replacing one frame changes exactly that frame's
 * rect, pixel for pixel against a reference composed here by hand (no sharp composite): the replacement's trimmed
 * part turned the way the format stores it. The sheet is noise, the replacement another noise, so a pixel in the
 * wrong place or turned the wrong way shows.
 */

const sheetW = 64;
const sheetH = 48;

/** Deterministic noise, fully opaque, RGBA. */
function noise(width: number, height: number, seed: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  let state = seed;
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = (i & 3) === 3 ? 255 : state >>> 24;
  }
  return data;
}

const png = (data: Buffer, width: number, height: number) =>
  sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
const raw = async (image: Buffer) =>
  (await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true })).data;

/** Where the stored sprite's pixel (sx, sy) of a w×h sprite lands in its rect when turned `rotation` clockwise. */
function turned(sx: number, sy: number, w: number, h: number, rotation: number): [number, number] {
  if (rotation === 90) return [h - 1 - sy, sx];
  if (rotation === 180) return [w - 1 - sx, h - 1 - sy];
  if (rotation === 270) return [sy, w - 1 - sx];
  return [sx, sy];
}

/** The reference: the sheet with the frame's rect filled by hand from the replacement. */
function reference(sheet: Buffer, frame: AtlasFrame, replacement: Buffer): Buffer {
  const out = Buffer.from(sheet);
  const turnedSideways = frame.rotation === 90 || frame.rotation === 270;
  const w = turnedSideways ? frame.rect.h : frame.rect.w;
  const h = turnedSideways ? frame.rect.w : frame.rect.h;
  for (let sy = 0; sy < h; sy++) {
    for (let sx = 0; sx < w; sx++) {
      const from = ((frame.offset.y + sy) * frame.sourceSize.w + frame.offset.x + sx) * 4;
      const [dx, dy] = turned(sx, sy, w, h, frame.rotation);
      const to = ((frame.rect.y + dy) * sheetW + frame.rect.x + dx) * 4;
      replacement.copy(out, to, from, from + 4);
    }
  }
  return out;
}

/** One small descriptor per format, each with a rotated, trimmed frame "hero" (10×6 stored, 14×9 in full) and a plain one. */
const descriptors: Record<string, string> = {
  'TexturePacker JSON': JSON.stringify({
    frames: {
      hero: {
        frame: { x: 3, y: 4, w: 10, h: 6 },
        rotated: true,
        trimmed: true,
        spriteSourceSize: { x: 2, y: 1, w: 10, h: 6 },
        sourceSize: { w: 14, h: 9 },
      },
      plain: {
        frame: { x: 20, y: 20, w: 8, h: 8 },
        rotated: false,
        trimmed: false,
        spriteSourceSize: { x: 0, y: 0, w: 8, h: 8 },
        sourceSize: { w: 8, h: 8 },
      },
    },
    meta: { image: 'sheet.png', size: { w: sheetW, h: sheetH } },
  }),
  'Phaser 3 multi-atlas': JSON.stringify({
    textures: [
      {
        image: 'sheet.png',
        size: { w: sheetW, h: sheetH },
        frames: [
          {
            filename: 'hero',
            frame: { x: 3, y: 4, w: 10, h: 6 },
            rotated: true,
            trimmed: true,
            spriteSourceSize: { x: 2, y: 1, w: 10, h: 6 },
            sourceSize: { w: 14, h: 9 },
          },
          { filename: 'plain', frame: { x: 20, y: 20, w: 8, h: 8 } },
        ],
      },
    ],
  }),
  // Starling gives the size as on the page (turned) and the trim as negated frameX/frameY.
  Starling: `<TextureAtlas imagePath="sheet.png"><SubTexture name="hero" x="3" y="4" width="6" height="10" rotated="true" frameX="-2" frameY="-1" frameWidth="14" frameHeight="9"/><SubTexture name="plain" x="20" y="20" width="8" height="8"/></TextureAtlas>`,
  // libGDX turns counter-clockwise and counts the offset from the bottom: 9 - 6 - 1 = 2.
  'libGDX / Spine 4': `sheet.png\nsize: ${sheetW}, ${sheetH}\nhero\n  bounds: 3, 4, 10, 6\n  offsets: 2, 2, 14, 9\n  rotate: 90\nplain\n  bounds: 20, 20, 8, 8\n`,
  'libGDX old': `sheet.png\nsize: ${sheetW},${sheetH}\nformat: RGBA8888\nhero\n  rotate: true\n  xy: 3, 4\n  size: 10, 6\n  orig: 14, 9\n  offset: 2, 2\n  index: -1\nplain\n  rotate: false\n  xy: 20, 20\n  size: 8, 8\n  orig: 8, 8\n  offset: 0, 0\n  index: -1\n`,
  'Cocos2d plist 2': `<plist version="1.0"><dict><key>frames</key><dict>
    <key>hero</key><dict><key>frame</key><string>{{3,4},{10,6}}</string><key>offset</key><string>{0,0}</string><key>rotated</key><true/><key>sourceColorRect</key><string>{{2,1},{10,6}}</string><key>sourceSize</key><string>{14,9}</string></dict>
    <key>plain</key><dict><key>frame</key><string>{{20,20},{8,8}}</string><key>offset</key><string>{0,0}</string><key>rotated</key><false/><key>sourceColorRect</key><string>{{0,0},{8,8}}</string><key>sourceSize</key><string>{8,8}</string></dict>
  </dict><key>metadata</key><dict><key>format</key><integer>2</integer><key>textureFileName</key><string>sheet.png</string></dict></dict></plist>`,
  // Format 3's offset is the trimmed rect's centre from the full size's centre, y up: (2 - 2, -(1 - 1.5)) = (0, 0.5)
  // rounds to the same place; here (2,1) in 14x9 for 10x6: centre offsets x = 2 + 5 - 7 = 0, y = -(1 + 3 - 4.5) = 0.5.
  'Cocos2d plist 3': `<plist version="1.0"><dict><key>frames</key><dict>
    <key>hero</key><dict><key>spriteOffset</key><string>{0,0.5}</string><key>spriteSize</key><string>{10,6}</string><key>spriteSourceSize</key><string>{14,9}</string><key>textureRect</key><string>{{3,4},{10,6}}</string><key>textureRotated</key><true/></dict>
    <key>plain</key><dict><key>spriteOffset</key><string>{0,0}</string><key>spriteSize</key><string>{8,8}</string><key>spriteSourceSize</key><string>{8,8}</string><key>textureRect</key><string>{{20,20},{8,8}}</string><key>textureRotated</key><false/></dict>
  </dict><key>metadata</key><dict><key>format</key><integer>3</integer><key>textureFileName</key><string>sheet.png</string></dict></dict></plist>`,
};

describe('composing a sheet after one frame changes', async () => {
  const sheetPixels = noise(sheetW, sheetH, 7);
  const sheet = await png(sheetPixels, sheetW, sheetH);

  for (const [format, text] of Object.entries(descriptors)) {
    it(`${format}: only the frame's rect changes, right side up and in place`, async () => {
      const atlas = parseAtlasDescriptor(text)!;
      const hero = atlas.frames.find((frame) => frame.name === 'hero')!;
      expect(hero.sourceSize).toEqual({ w: 14, h: 9 });
      expect(hero.offset.x).toBe(2);
      const replacementPixels = noise(14, 9, 99);
      const composed = await raw(
        await composeSheet(sheet, 'sheet.png', [
          { frame: hero, pixels: await decoded(await png(replacementPixels, 14, 9)) },
        ]),
      );
      expect(composed.equals(reference(sheetPixels, hero, replacementPixels))).toBe(true);
    });
  }

  it('TexturePacker and libGDX store the same sprite turned opposite ways', async () => {
    const texturePacker = parseAtlasDescriptor(descriptors['TexturePacker JSON']!)!.frames[0]!;
    const libgdx = parseAtlasDescriptor(descriptors['libGDX / Spine 4']!)!.frames[0]!;
    expect([texturePacker.rotation, libgdx.rotation]).toEqual([90, 270]);
    expect(texturePacker.rect).toEqual(libgdx.rect);
  });

  it('places several frames at once and leaves the rest (padding and other frames) as it was', async () => {
    const atlas = parseAtlasDescriptor(descriptors['TexturePacker JSON']!)!;
    const [hero, plain] = atlas.frames as [AtlasFrame, AtlasFrame];
    const heroPixels = noise(14, 9, 1);
    const plainPixels = noise(8, 8, 2);
    const composed = await raw(
      await composeSheet(sheet, 'sheet.png', [
        { frame: hero, pixels: await decoded(await png(heroPixels, 14, 9)) },
        { frame: plain, pixels: await decoded(await png(plainPixels, 8, 8)) },
      ]),
    );
    expect(composed.equals(reference(reference(sheetPixels, hero, heroPixels), plain, plainPixels))).toBe(
      true,
    );
  });

  it("replaces the rect's pixels instead of blending: a transparent replacement clears the frame", async () => {
    const plain = parseAtlasDescriptor(descriptors['TexturePacker JSON']!)!.frames[1]!;
    const clear = await sharp({
      create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const composed = await raw(
      await composeSheet(sheet, 'sheet.png', [{ frame: plain, pixels: await decoded(clear) }]),
    );
    const at = (x: number, y: number) => composed[(y * sheetW + x) * 4 + 3];
    expect([at(20, 20), at(27, 27)]).toEqual([0, 0]);
    expect(at(19, 20)).toBe(255);
  });

  it('is the same bytes when composed again (idempotent)', async () => {
    const hero = parseAtlasDescriptor(descriptors.Starling!)!.frames[0]!;
    const pixels = await decoded(await png(noise(14, 9, 5), 14, 9));
    const first = await composeSheet(sheet, 'sheet.png', [{ frame: hero, pixels }]);
    expect((await composeSheet(sheet, 'sheet.png', [{ frame: hero, pixels }])).equals(first)).toBe(true);
  });

  it('tells when a trimmed frame drops visible pixels of the replacement', async () => {
    const hero = parseAtlasDescriptor(descriptors['TexturePacker JSON']!)!.frames[0]!;
    const inside = Buffer.alloc(14 * 9 * 4);
    for (let y = 1; y < 7; y++)
      for (let x = 2; x < 12; x++) inside.writeUInt32BE(0xff0000ff, (y * 14 + x) * 4);
    expect(dropsVisiblePixels(hero, await decoded(await png(inside, 14, 9)))).toBe(false);
    expect(dropsVisiblePixels(hero, await decoded(await png(noise(14, 9, 3), 14, 9)))).toBe(true);
  });
});
