import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { encodePreview, previewSizes } from './image-previews';
import type * as ImageReading from './image-reading';
import { drawMarks, firstPage, openImage, resizeWithin } from './pipeline';
import type { Pixels } from './pixels';
import { makeCopiesWithPreviews } from './variants';

// Every read of an image's encoded bytes goes through readImage: counting its calls counts the decodes.
const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./image-reading', async (importOriginal) => {
  const actual = await importOriginal<typeof ImageReading>();
  return {
    ...actual,
    readImage: (...args: Parameters<typeof actual.readImage>) => {
      reads.count++;
      return actual.readImage(...args);
    },
  };
});

beforeEach(() => {
  reads.count = 0;
});

/** A sheet larger than the preview: flat cells on grey, and the small frames they are (sprite sheets are so). */
const [width, height] = [1200, 900];
const frames = Array.from({ length: 48 }, (_, i) => ({
  x: (i % 8) * 150 + 10,
  y: Math.floor(i / 8) * 150 + 10,
  w: 20 + (i % 4) * 30,
  h: 16 + (i % 3) * 40,
}));

async function sheet(): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 4, 128);
  frames.forEach(({ x, y, w, h }, i) => {
    for (let row = y; row < y + h; row++)
      for (let column = x; column < x + w; column++)
        data.set([(i * 37) % 256, (i * 91) % 256, (i * 53) % 256, 255], (row * width + column) * 4);
  });
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** RGB pixels of encoded bytes (a preview's WebP, a copy's PNG). */
async function rgbOf(bytes: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** Mean absolute difference per channel of two images of one size, ignoring alpha (compared as RGB). */
async function distance(a: Pixels, b: Pixels): Promise<number> {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  const rgb = async (p: Pixels) =>
    p.channels === 3 ? p.data : await sharp(p.data, { raw: p }).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([rgb(a), rgb(b)]);
  return x.reduce((sum, value, i) => sum + Math.abs(value - y[i]!), 0) / x.length;
}

describe('the image pipeline keeps its order', () => {
  it('a sheet larger than the preview: the watermarked copy is the marks drawn at full size, and its preview the marked pixels made small, never the marks drawn on a small picture', async () => {
    const original = await sheet();
    const marks = { productName: 'Reskin Studio', frames };
    const { watermark, previews } = await makeCopiesWithPreviews(
      original,
      'sheet.png',
      'Reskin Studio',
      frames,
    );

    // The steps by hand, in the pipeline's order, and in the order a library pipeline used to run them.
    const decoded = await (await openImage(original, 'png')).decode();
    const marked = await drawMarks(decoded, marks);
    const box = previewSizes.preview.pixels;
    const markedThenSmall = await resizeWithin(marked.pixels, box);
    const smallThenMarked = (await drawMarks({ pixels: await resizeWithin(decoded.pixels, box) }, marks))
      .pixels;

    // The copy (lossless PNG) carries exactly the marks drawn at full size, inside the smallest frame too.
    const copy = await rgbOf(watermark);
    expect(await distance(copy, marked.pixels)).toBe(0);
    const [smallest] = frames;
    const changed = (a: Buffer, b: Buffer) => {
      let count = 0;
      for (let row = smallest!.y; row < smallest!.y + smallest!.h; row++)
        for (let column = smallest!.x; column < smallest!.x + smallest!.w; column++) {
          const at = (row * width + column) * 3;
          if ([0, 1, 2].some((c) => Math.abs(a[at + c]! - b[at + c]!) > 24)) count++;
        }
      return count;
    };
    expect(changed((await rgbOf(original)).data, copy.data)).toBeGreaterThanOrEqual(
      (smallest!.w * smallest!.h) / 20,
    );

    // The preview is the marked pixels made small: the same bytes as they encode to, and (in pixels, within the
    // lossy encoding's noise) far nearer them than the marks drawn on the small picture, which are other marks.
    expect(previews!.watermark.preview.equals(await encodePreview(markedThenSmall, 'preview'))).toBe(true);
    expect(previews!.watermark.preview.equals(await encodePreview(smallThenMarked, 'preview'))).toBe(false);
    const preview = await rgbOf(previews!.watermark.preview);
    const right = await distance(preview, markedThenSmall);
    expect(right).toBeLessThan(3);
    expect(await distance(preview, smallThenMarked)).toBeGreaterThan(2 * right);

    // The original's preview is the decoded pixels made small: no mark in it.
    const originalPreview = await rgbOf(previews!.original.preview);
    const originalSmall = await resizeWithin(decoded.pixels, box);
    expect(previews!.original.preview.equals(await encodePreview(originalSmall, 'preview'))).toBe(true);
    expect(await distance(originalPreview, markedThenSmall)).toBeGreaterThan(2 * right);
  });

  it('generation reads the bytes of an image once: a still image, an animation, and one too big to keep decoded before', async () => {
    const gifFrames = await Promise.all(
      ['red', 'blue', 'green'].map((c) =>
        sharp({ create: { width: 40, height: 30, channels: 4, background: c } })
          .png()
          .toBuffer(),
      ),
    );
    const animation = await sharp(gifFrames, { join: { animated: true } })
      .gif({ delay: [80, 90, 100], loop: 0 })
      .toBuffer();
    const big = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: 'teal' } })
      .jpeg()
      .toBuffer();
    for (const [content, path] of [
      [await sheet(), 'sheet.png'],
      [animation, 'anim.gif'],
      [big, 'big.jpg'],
    ] as const) {
      reads.count = 0;
      const { previews } = await makeCopiesWithPreviews(content, path, 'Reskin Studio');
      expect(previews, path).toBeDefined();
      expect(reads.count, path).toBe(1);
    }
  });

  it("an animation's copy keeps every page and its timing, and its previews show the first page", async () => {
    const pages = await Promise.all(
      ['red', 'blue'].map((c) =>
        sharp({ create: { width: 600, height: 500, channels: 4, background: c } })
          .png()
          .toBuffer(),
      ),
    );
    const animation = await sharp(pages, { join: { animated: true } })
      .gif({ delay: [70, 120], loop: 3 })
      .toBuffer();
    const { watermark, previews } = await makeCopiesWithPreviews(animation, 'a.gif', 'Reskin Studio');
    const meta = await sharp(watermark, { pages: -1 }).metadata();
    expect([meta.pages, meta.pageHeight, meta.delay, meta.loop]).toEqual([2, 500, [70, 120], 3]);
    const decoded = await (await openImage(animation, 'gif')).decode();
    const first = await resizeWithin(firstPage(decoded), previewSizes.preview.pixels);
    expect(await distance(await rgbOf(previews!.original.preview), first)).toBeLessThan(2);
  });
});
