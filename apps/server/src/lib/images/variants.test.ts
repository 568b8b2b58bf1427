import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageFormatOfName, imageFormats, type ImageFormatName } from '@reskin/contract';
import { sampleBmp, sampleIco, sampleImage } from '../../../test/support/image-samples';
import { readBandedPng } from './banded-png';
import { readImage } from './image-reading';
import { variantKey } from './copy-keys';
import { forgetRenderedTiles, watermarkTile, type FrameRect } from './marks';
import { copyEncoding, skeletonBackground } from './pipeline';
import { makeCopies, makeCopiesWithPreviews, makeSkeleton, makeWatermark } from './variants';
import { previewSizes } from './image-previews';

/**
 * The raster images of the corpus's builds on this machine, by path: under CORPUS_DIR when set, else the repository's
 * corpus/ and the shared folder's (as e2e/gate/corpus.ts finds them).
 */
function corpusImagePaths(): string[] {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  const folders = process.env.CORPUS_DIR
    ? [process.env.CORPUS_DIR]
    : [join(root, 'corpus'), join(root, '..', 'shared', 'corpus')];
  const builds = new Map<string, string>();
  for (const folder of folders.filter((found) => existsSync(found))) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const build = join(folder, entry.name, 'build');
      if (entry.isDirectory() && !builds.has(entry.name) && existsSync(build)) builds.set(entry.name, build);
    }
  }
  return [...builds.values()]
    .flatMap((build) => readdirSync(build, { recursive: true, withFileTypes: true }))
    .filter(
      (entry) =>
        entry.isFile() && ['png', 'jpeg', 'webp', 'gif'].includes(imageFormatOfName(entry.name) ?? ''),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

/** sharp's name of each copy format. */
const sharpFormat = { png: 'png', jpeg: 'jpeg', gif: 'gif', webp: 'webp', avif: 'heif', svg: 'svg' } as const;

async function photo(format: 'png' | 'jpeg' | 'webp' | 'gif', width = 120, height = 80): Promise<Buffer> {
  // A gradient-ish picture: two colours split down the middle.
  const left = await sharp({
    create: { width: Math.ceil(width / 2), height, channels: 3, background: { r: 250, g: 200, b: 10 } },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 60, b: 160 } } })
    .composite([{ input: left, left: 0, top: 0 }])
    .toFormat(format)
    .toBuffer();
}

async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    ['red', 'blue', 'green'].map((c) =>
      sharp({ create: { width: 40, height: 30, channels: 4, background: c } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: [80, 90, 100], loop: 0 })
    .toBuffer();
}

describe('generated variants', () => {
  for (const format of ['png', 'webp', 'gif'] as const) {
    it(`a ${format} skeleton has the original's size and format and is fully transparent`, async () => {
      const skeleton = await makeSkeleton(await photo(format), `x.${format}`);
      const meta = await sharp(skeleton).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 120, 80]);
      const stats = await sharp(skeleton).ensureAlpha().stats();
      expect(stats.channels[3]!.max).toBe(0);
    });
  }

  it('a JPEG skeleton is flat light grey of the same size', async () => {
    const skeleton = await makeSkeleton(await photo('jpeg'), 'x.jpg');
    const meta = await sharp(skeleton).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 120, 80]);
    const stats = await sharp(skeleton).stats();
    for (const channel of stats.channels.slice(0, 3)) {
      expect(channel.max - channel.min).toBeLessThanOrEqual(2);
      expect(channel.mean).toBeGreaterThan(180);
    }
  });

  it('an animated GIF skeleton keeps the frame size', async () => {
    const skeleton = await makeSkeleton(await animatedGif(), 'anim.gif');
    const meta = await sharp(skeleton).metadata();
    expect([meta.format, meta.width, meta.pageHeight ?? meta.height]).toEqual(['gif', 40, 30]);
  });

  it('an SVG skeleton is empty with the same width, height and viewBox', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32" viewBox="0 0 128 64"><circle cx="5" cy="5" r="4"/></svg>',
    );
    const skeleton = (await makeSkeleton(svg, 'icon.svg')).toString();
    expect(skeleton).toContain('width="64"');
    expect(skeleton).toContain('height="32"');
    expect(skeleton).toContain('viewBox="0 0 128 64"');
    expect(skeleton).not.toContain('circle');
    const meta = await sharp(Buffer.from(skeleton)).metadata();
    expect([meta.width, meta.height]).toEqual([64, 32]);
  });

  for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
    it(`a ${format} watermark has the same size and format and differs from the original`, async () => {
      const original = await photo(format);
      const marked = await makeWatermark(
        original,
        `x.${format === 'jpeg' ? 'jpg' : format}`,
        'Reskin Studio',
      );
      const meta = await sharp(marked).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 120, 80]);
      const a = await sharp(original).removeAlpha().raw().toBuffer();
      const b = await sharp(marked).removeAlpha().raw().toBuffer();
      let changed = 0;
      for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 8) changed++;
      expect(changed / a.length).toBeGreaterThan(0.01);
    });
  }

  it('a watermark made with a kept tile is the one sharp makes from the SVG tile, and a skeleton the one from create', async () => {
    const original = await photo('png', 300, 120);
    const tile = watermarkTile(300, 120, 'Reskin Studio');
    const direct = await copyEncoding(
      sharp(original).composite([{ input: Buffer.from(tile.svg), tile: true, blend: 'over' }]),
      'png',
      'watermark',
    ).toBuffer();
    forgetRenderedTiles();
    expect((await makeWatermark(original, 'a.png', 'Reskin Studio')).equals(direct)).toBe(true);
    // The second one uses the tile rendered for the first.
    expect((await makeWatermark(original, 'b.png', 'Reskin Studio')).equals(direct)).toBe(true);
    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
      const created = await copyEncoding(
        sharp({ create: { width: 300, height: 120, ...skeletonBackground(format) } }),
        format,
        'skeleton',
      ).toBuffer();
      expect(
        (await makeSkeleton(await photo(format, 300, 120), `s.${format === 'jpeg' ? 'jpg' : format}`)).equals(
          created,
        ),
        format,
      ).toBe(true);
    }
  });

  it('a watermark of an animated GIF keeps every frame and its timing', async () => {
    const marked = await makeWatermark(await animatedGif(), 'anim.gif', 'Reskin Studio');
    const meta = await sharp(marked, { pages: -1 }).metadata();
    expect([meta.width, meta.pageHeight, meta.pages]).toEqual([40, 30, 3]);
    expect(meta.delay).toEqual([80, 90, 100]);
  });

  it('a tiny image still gets a watermark that changes it', async () => {
    const tiny = await sharp({ create: { width: 3, height: 2, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    const marked = await makeWatermark(tiny, 't.png', 'Reskin Studio');
    const meta = await sharp(marked).metadata();
    expect([meta.width, meta.height]).toEqual([3, 2]);
  });

  it('an SVG watermark is the rendered original with the mark, embedded in an SVG of the same size and viewBox', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 400 200"><rect width="400" height="200" fill="#3366ff"/></svg>',
    );
    const marked = await makeWatermark(svg, 'bg.svg', 'Reskin Studio');
    const text = marked.toString();
    expect(text).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="200" height="100" viewBox="0 0 400 200"><image [^>]*href="data:image\/png;base64,/,
    );
    // Nothing of the original drawing is left to edit: only the embedded picture.
    expect(text).not.toContain('<rect');
    expect((await sharp(marked).metadata()).width).toBe(200);
    const [a, b] = await Promise.all([sharp(svg).raw().toBuffer(), sharp(marked).raw().toBuffer()]);
    expect(a.equals(b)).toBe(false);
  });

  for (const format of Object.keys(imageFormats) as ImageFormatName[]) {
    it(`a ${format} gets a skeleton and a watermark in ${imageFormats[format].copiesAs}, of its size, that differ from it`, async () => {
      const { name, content } = await sampleImage(format, 120, 80);
      const original = await readImage(content, format).ensureAlpha().resize(120, 80).raw().toBuffer();
      for (const copy of [
        await makeSkeleton(content, name),
        await makeWatermark(content, name, 'Reskin Studio'),
      ]) {
        const meta = await sharp(copy).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([
          sharpFormat[imageFormats[format].copiesAs],
          120,
          80,
        ]);
        const pixels = await sharp(copy).ensureAlpha().resize(120, 80).raw().toBuffer();
        expect(pixels.equals(original)).toBe(false);
      }
    });
  }

  it('a BMP with an icon inside a PNG entry, and a 32-bit bitmap icon, decode to their pictures', async () => {
    for (const ico of [await sampleIco(32, 16, 'png'), await sampleIco(32, 16, 'bitmap')]) {
      const { data, info } = await readImage(ico, 'ico')
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([32, 16]);
      expect([...data.subarray(0, 4)]).toEqual([250, 200, 10, 255]);
      expect([...data.subarray(data.length - 4)]).toEqual([20, 60, 160, 255]);
    }
    const { data } = await readImage(sampleBmp(5, 3), 'bmp').raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 4)]).toEqual([250, 200, 10, 255]);
  });

  describe('a sprite sheet page', () => {
    // Frames of several sizes on a 256x160 sheet with 4 px of padding between them: a 12x12 sprite, a 16x16 one,
    // a long thin one, one big enough for the tiled mark, and a transparent one (a sprite's empty cell).
    const frames = [
      { x: 4, y: 4, w: 12, h: 12 },
      { x: 20, y: 4, w: 16, h: 16 },
      { x: 40, y: 4, w: 60, h: 14 },
      { x: 4, y: 24, w: 120, h: 64 },
      { x: 130, y: 24, w: 40, h: 40 },
    ];
    async function sheet(format: 'png' | 'jpeg' | 'webp' | 'gif'): Promise<Buffer> {
      const cells = await Promise.all(
        frames.slice(0, 4).map(async ({ x, y, w, h }, i) => ({
          input: await sharp({
            create: {
              width: w,
              height: h,
              channels: 4,
              background: { r: 60 * i, g: 200 - 40 * i, b: 90, alpha: 1 },
            },
          })
            .png()
            .toBuffer(),
          left: x,
          top: y,
        })),
      );
      const background =
        format === 'jpeg' ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 };
      return sharp({ create: { width: 256, height: 160, channels: 4, background } })
        .composite(cells)
        .toFormat(format, format === 'png' ? {} : { quality: 95 })
        .toBuffer();
    }
    const rgba = (image: Buffer) => sharp(image).ensureAlpha().raw().toBuffer();
    /** Pixels of `rect` where a channel differs by more than 24 between two RGBA images of width 256. */
    function changedIn(
      a: Buffer,
      b: Buffer,
      { x, y, w, h }: { x: number; y: number; w: number; h: number },
    ): number {
      let changed = 0;
      for (let row = y; row < y + h; row++) {
        for (let column = x; column < x + w; column++) {
          const at = (row * 256 + column) * 4;
          if ([0, 1, 2, 3].some((c) => Math.abs(a[at + c]! - b[at + c]!) > 24)) changed++;
        }
      }
      return changed;
    }

    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
      it(`a ${format} sheet's watermark marks inside every frame, the 12x12 one too, keeps its format and size, and its skeleton stays blank`, async () => {
        const original = await sheet(format);
        const name = `sheet.${format === 'jpeg' ? 'jpg' : format}`;
        const { skeleton, watermark } = await makeCopies(original, name, 'Reskin Studio', frames);
        const meta = await sharp(watermark).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([format, 256, 160]);
        const [before, after] = await Promise.all([rgba(original), rgba(watermark)]);
        for (const rect of format === 'jpeg' ? frames.slice(0, 4) : frames) {
          // At least a twentieth of every frame, the smallest sprite too, carries the mark.
          expect(
            changedIn(before, after, rect),
            `frame ${rect.w}x${rect.h} at ${rect.x},${rect.y}`,
          ).toBeGreaterThanOrEqual((rect.w * rect.h) / 20);
        }
        // The padding outside every frame carries the whole image's tiled mark: frame marks come on top of it.
        if (format !== 'jpeg')
          expect(changedIn(before, after, { x: 176, y: 0, w: 80, h: 160 })).toBeGreaterThanOrEqual(
            (80 * 160) / 20,
          );
        const blank = await sharp(skeleton).ensureAlpha().stats();
        expect([
          (await sharp(skeleton).metadata()).format,
          blank.channels.every((c) => c.max - c.min <= 2),
        ]).toEqual([format, true]);
        if (format !== 'jpeg') expect(blank.channels[3]!.max).toBe(0);
      });
    }

    it("a PNG sheet's watermark is written in bands with nothing pasted (a version's compositions start from it), an image's is not", async () => {
      const { watermark } = await makeCopies(await sheet('png'), 'sheet.png', 'Reskin Studio', frames);
      expect(readBandedPng(watermark)?.rects).toEqual([]);
      const bare = await makeWatermark(await sheet('png'), 'sheet.png', 'Reskin Studio');
      expect(readBandedPng(bare)).toBe(undefined);
    });

    it('a sheet whose frames share sizes renders each size once and marks aliases (frames of one rect) once', async () => {
      forgetRenderedTiles();
      const grid = Array.from({ length: 64 }, (_, i) => ({
        x: (i % 8) * 32,
        y: Math.floor(i / 8) * 20,
        w: 32,
        h: 20,
      }));
      const original = await sharp({
        create: { width: 256, height: 160, channels: 4, background: { r: 30, g: 30, b: 30, alpha: 1 } },
      })
        .png()
        .toBuffer();
      const once = await makeWatermark(original, 'grid.png', 'Reskin Studio', grid);
      const twice = await makeWatermark(original, 'grid.png', 'Reskin Studio', [...grid, ...grid]);
      expect(twice.equals(once)).toBe(true);
      const [before, after] = await Promise.all([rgba(original), rgba(once)]);
      for (const rect of grid) expect(changedIn(before, after, rect)).toBeGreaterThanOrEqual(64);
    });
  });

  describe('the watermark cannot be stripped by frames', () => {
    /** Deterministic mid-tone noise (channels 48-207), opaque: any visible mark on it changes pixels. */
    function noise(width: number, height: number, seed = 7): Buffer {
      const data = Buffer.alloc(width * height * 4);
      let state = seed;
      for (let i = 0; i < data.length; i++) {
        state = (state * 1103515245 + 12345) >>> 0;
        data[i] = (i & 3) === 3 ? 255 : 48 + (state >>> 24) * (160 / 256);
      }
      return data;
    }
    const rgba = async (image: Buffer) =>
      (await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true })).data;
    /** Share of pixels where a channel differs by more than 24 between two RGBA buffers of one size. */
    function changedShare(a: Buffer, b: Buffer): number {
      let changed = 0;
      for (let i = 0; i < a.length; i += 4)
        if ([0, 1, 2, 3].some((c) => Math.abs(a[i + c]! - b[i + c]!) > 24)) changed++;
      return changed / (a.length / 4);
    }
    /** The share of an image the whole-image tiled mark changes (the tile alone, without frames). */
    async function tileCoverage(original: Buffer, name: string): Promise<number> {
      return changedShare(
        await rgba(original),
        await rgba(await makeWatermark(original, name, 'Reskin Studio')),
      );
    }

    const [width, height] = [300, 200];
    const hostile: Record<string, FrameRect[]> = {
      'no frames': [],
      'one 1 px frame (a 1x1 grid with a huge spacing)': [{ x: 0, y: 0, w: 1, h: 1 }],
      'many 1 px frames': Array.from({ length: 400 }, (_, i) => ({
        x: (i * 7) % width,
        y: Math.floor((i * 7) / width) * 3,
        w: 1,
        h: 1,
      })),
      'frames wholly outside the image': [
        { x: 5000, y: 5000, w: 64, h: 64 },
        { x: -200, y: 0, w: 100, h: 100 },
      ],
      'a frame bigger than the image': [{ x: -10, y: -10, w: 5000, h: 5000 }],
      'frames with non-finite numbers': [
        { x: Number.NaN, y: 0, w: 10, h: 10 },
        { x: 0, y: 0, w: Number.POSITIVE_INFINITY, h: 10 },
      ],
    };
    for (const [format, name] of [
      ['png', 'hostile.png'],
      ['jpeg', 'hostile.jpg'],
    ] as const) {
      it(`a ${format} image's watermarked copy differs from its original by at least the tile's coverage, whatever frames it is given`, async () => {
        const original = await sharp(noise(width, height), { raw: { width, height, channels: 4 } })
          .toFormat(format, { quality: 95 })
          .toBuffer();
        const coverage = await tileCoverage(original, name);
        expect(coverage).toBeGreaterThan(0.05);
        const before = await rgba(original);
        for (const [label, frames] of Object.entries(hostile)) {
          const { watermark } = await makeCopies(original, name, 'Reskin Studio', frames);
          expect(changedShare(before, await rgba(watermark)), label).toBeGreaterThanOrEqual(coverage * 0.98);
        }
      });
    }

    // The corpus's whole builds (corpus/README.md), where they are on this machine: every image, given the grid
    // attack (one 1 px frame), is marked at least as much as by the tile alone.
    const corpusImages = corpusImagePaths();
    it.skipIf(corpusImages.length === 0)(
      `every image of the game corpus (${corpusImages.length} here) is marked over the whole image whatever frames it is given`,
      async () => {
        const weak: string[] = [];
        for (const path of corpusImages) {
          const original = readFileSync(path);
          const coverage = await tileCoverage(original, path);
          const { watermark } = await makeCopies(original, path, 'Reskin Studio', [
            { x: 0, y: 0, w: 1, h: 1 },
          ]);
          const share = changedShare(await rgba(original), await rgba(watermark));
          // Lossy formats (WebP, JPEG) re-encode with a little noise either way.
          if (share < coverage * 0.9) weak.push(`${path}: ${share.toFixed(3)} < ${coverage.toFixed(3)}`);
        }
        expect(weak).toEqual([]);
      },
      600_000,
    );

    it('a 2048 px sheet of 500 frames gets its copies, and its previews are made small from the marked pixels', async () => {
      const side = 2048;
      const frames = Array.from({ length: 500 }, (_, i) => ({
        x: (i % 25) * 80 + 4,
        y: Math.floor(i / 25) * 100 + 4,
        w: 72 - (i % 5) * 8,
        h: 90 - (i % 3) * 20,
      }));
      // Flat cells on grey, as sprite sheets are: previews of it stay close to the pixels they were made from.
      const cells = Buffer.alloc(side * side * 4, 128);
      frames.forEach(({ x, y, w, h }, i) => {
        for (let row = y; row < y + h; row++)
          for (let column = x; column < x + w; column++)
            cells.set([(i * 37) % 256, (i * 91) % 256, (i * 53) % 256, 255], (row * side + column) * 4);
      });
      for (let i = 3; i < cells.length; i += 4) cells[i] = 255;
      const original = await sharp(cells, { raw: { width: side, height: side, channels: 4 } })
        .png({ compressionLevel: 1 })
        .toBuffer();
      const { watermark, previews } = await makeCopiesWithPreviews(
        original,
        'sheet.png',
        'Reskin Studio',
        frames,
      );
      const meta = await sharp(watermark).metadata();
      expect([meta.width, meta.height]).toEqual([side, side]);
      const box = previewSizes.preview.pixels;
      for (const preview of [previews!.original.preview, previews!.watermark.preview]) {
        const { width: w, height: h } = await sharp(preview).metadata();
        expect([w, h]).toEqual([box, box]);
      }
      // The watermarked copy's preview is the copy made small: it is nearer the copy resized here than the original's
      // preview is (the mark shows in it).
      const small = async (image: Buffer) =>
        await sharp(image).resize(box, box).removeAlpha().raw().toBuffer();
      const distance = (a: Buffer, b: Buffer) =>
        a.reduce((sum, value, i) => sum + Math.abs(value - b[i]!), 0) / a.length;
      const [fromCopy, markedPreview, originalPreview] = await Promise.all([
        small(watermark),
        small(previews!.watermark.preview),
        small(previews!.original.preview),
      ]);
      expect(distance(markedPreview, fromCopy)).toBeLessThan(distance(originalPreview, fromCopy));
    });
  });

  it('variant keys change with the original key and keep its extension', () => {
    expect(variantKey('games/1/files/abc.png', 'skeleton')).toBe('games/1/files/abc.png.skeleton.png');
    expect(variantKey('games/1/files/def.png', 'watermark')).toBe('games/1/files/def.png.watermark.png');
  });
});
