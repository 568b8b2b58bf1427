import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bandRowsFor, encodePlainBandedPng, readBandedPng } from '../../../lib/images/banded-png';
import { decodePixels } from '../../../lib/images/pixels';
import { parseAtlasDescriptor } from '../../atlases/atlas-parsers';
import { composeSheet, framePixels, type FrameReplacement } from './compose-sheet';

/**
 * A PNG sheet composed in bands (decision 0061): exact on a sheet of semi-transparent art (alpha 1 to 254
 * everywhere, where a premultiplied composite changes colours), and the same bytes whether a composition starts
 * from the base or from an earlier composition.
 */

const width = 512;
const bandRows = bandRowsFor(width);
const height = 4 * bandRows + 37;

/** Deterministic RGBA noise; alpha from 1 to 254 where `alpha` is 'semi', any value where it is 'any'. */
function noise(w: number, h: number, seed: number, alpha: 'semi' | 'any'): Buffer {
  const data = Buffer.alloc(w * h * 4);
  let state = seed;
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = (i & 3) === 3 && alpha === 'semi' ? 1 + ((i >> 2) % 254) : state >>> 24;
  }
  return data;
}

const png = (data: Buffer, w: number, h: number) =>
  sharp(data, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toBuffer();
const raw = async (image: Buffer) => (await sharp(image).raw().toBuffer({ resolveWithObject: true })).data;

/** The frames: a trimmed one turned on the page that crosses a band's edge, a plain one, one over three bands. */
const frames = parseAtlasDescriptor(
  JSON.stringify({
    frames: {
      hero: {
        frame: { x: 40, y: bandRows - 20, w: 60, h: 33 },
        rotated: true,
        trimmed: true,
        spriteSourceSize: { x: 3, y: 5, w: 60, h: 33 },
        sourceSize: { w: 70, h: 40 },
      },
      plain: {
        frame: { x: 300, y: 10, w: 50, h: 30 },
        rotated: false,
        trimmed: false,
        sourceSize: { w: 50, h: 30 },
      },
      tall: {
        frame: { x: 200, y: bandRows + 7, w: 31, h: 2 * bandRows },
        rotated: false,
        trimmed: false,
        sourceSize: { w: 31, h: 2 * bandRows },
      },
    },
    meta: { image: 'sheet.png', size: { w: width, h: height } },
  }),
)!.frames;
const frame = (name: string) => frames.find((each) => each.name === name)!;

/** A replacement of `name` drawn from noise (transparent pixels keep their colour values). */
async function replacement(name: string, seed: number): Promise<FrameReplacement> {
  const { w, h } = frame(name).sourceSize;
  return { frame: frame(name), pixels: await decodePixels(await png(noise(w, h, seed, 'any'), w, h), 'png') };
}

/** The reference: the base's pixels with each rect overwritten by hand by the frame's stored pixels. */
async function reference(base: Buffer, replacements: FrameReplacement[]): Promise<Buffer> {
  const out = Buffer.from(base);
  for (const { frame: at, pixels } of replacements) {
    const stored = await framePixels(at, pixels);
    for (let y = 0; y < stored.height; y++)
      stored.data.copy(
        out,
        ((at.rect.y + y) * width + at.rect.x) * 4,
        y * stored.width * 4,
        (y + 1) * stored.width * 4,
      );
  }
  return out;
}

describe('a PNG sheet composed in bands', async () => {
  const basePixels = noise(width, height, 7, 'semi');
  const base = await png(basePixels, width, height);

  it("changes exactly the rects, to the frames' stored pixels, on semi-transparent art", async () => {
    const replacements = [
      await replacement('hero', 1),
      await replacement('plain', 2),
      await replacement('tall', 3),
    ];
    const composed = await raw(await composeSheet(base, 'sheet.png', replacements));
    expect(composed.equals(await reference(basePixels, replacements))).toBe(true);
    const outside = (i: number) => {
      const [x, y] = [(i >> 2) % width, Math.floor(i / 4 / width)];
      return !replacements.some(
        ({ frame: { rect } }) => x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h,
      );
    };
    let unchanged = 0;
    for (let i = 0; i < composed.length; i++) if (outside(i) && composed[i] === basePixels[i]) unchanged++;
    expect(unchanged).toBe([...basePixels.keys()].filter(outside).length);
  });

  it('gives the same bytes from an earlier composition as from the base: frames added, replaced, removed', async () => {
    const [hero1, hero2, plain, tall] = [
      await replacement('hero', 1),
      await replacement('hero', 4),
      await replacement('plain', 2),
      await replacement('tall', 3),
    ];
    const steps: FrameReplacement[][] = [[hero1], [hero1, plain], [hero2, plain, tall], [plain, tall], []];
    let previous: Buffer | undefined;
    for (const step of steps) {
      const fromBase = await composeSheet(base, 'sheet.png', step);
      const fromPrevious = await composeSheet(base, 'sheet.png', step, previous);
      expect(fromPrevious.equals(fromBase)).toBe(true);
      expect((await raw(fromPrevious)).equals(await reference(basePixels, step))).toBe(true);
      previous = fromPrevious;
    }
    // The same frames drawn on another base share no band with it.
    const otherPixels = noise(width, height, 8, 'semi');
    const other = await composeSheet(await png(otherPixels, width, height), 'sheet.png', [plain], previous);
    expect((await raw(other)).equals(await reference(otherPixels, [plain]))).toBe(true);
  });

  it('copies the bands no changed frame crosses', async () => {
    const first = await composeSheet(base, 'sheet.png', [await replacement('plain', 2)]);
    const second = await composeSheet(
      base,
      'sheet.png',
      [await replacement('plain', 2), await replacement('tall', 3)],
      first,
    );
    const [before, after] = [readBandedPng(first)!, readBandedPng(second)!];
    const same = after.bands.map((band, i) => band.segment.equals(before.bands[i]!.segment));
    expect(same).toEqual([true, false, false, false, true]);
  });

  it("starts from a base written in bands (a sheet's watermarked copy): its bands no frame crosses are copied", async () => {
    const plainBase = await encodePlainBandedPng({ data: basePixels, width, height });
    expect((await raw(plainBase)).equals(basePixels)).toBe(true);
    const [hero, plain, tall] = [
      await replacement('hero', 1),
      await replacement('plain', 2),
      await replacement('tall', 3),
    ];
    let previous: Buffer | undefined;
    for (const step of [[plain], [plain, tall], [hero, tall], []]) {
      const fromBase = await composeSheet(plainBase, 'sheet.png', step);
      const fromPrevious = await composeSheet(plainBase, 'sheet.png', step, previous);
      expect(fromPrevious.equals(fromBase)).toBe(true);
      expect((await raw(fromBase)).equals(await reference(basePixels, step))).toBe(true);
      previous = fromBase;
    }
    const [baseBands, composed] = [
      readBandedPng(plainBase)!,
      readBandedPng(await composeSheet(plainBase, 'sheet.png', [plain]))!,
    ];
    const same = composed.bands.map((band, i) => band.segment.equals(baseBands.bands[i]!.segment));
    expect(same).toEqual([false, true, true, true, true]);
  });
});
