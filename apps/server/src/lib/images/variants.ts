import { LRUCache } from 'lru-cache';
import { imageFormatOfName, imageFormats, limits, type ImageFormatName } from '@reskin/contract';
import { encodePlainBandedPng } from './banded-png';
import { encodePreviews, makePreview, previewSizes, type PreviewSize } from './image-previews';
import { readImage } from './image-reading';
import { markOverlays, type FrameRect, type Marks } from './marks';
import {
  blank,
  blankWithin,
  copyEncoding,
  drawMarks,
  encodeBlankPreview,
  encodeCopy,
  firstPage,
  openImage,
  type Blank,
  type Decoded,
  type Header,
  type RasterCopyFormat,
} from './pipeline';
import { svgSkeleton, svgWatermark } from './svg-copies';

// The generated copies of a game image (DESIGN.md "Games, files, variants") and their previews (decision 0038),
// made by the pipeline's steps in order (decision 0059): decode once, a blank for the skeleton, the marks drawn
// at full size, previews resized from the original's and the marked pixels, each encoded in its format.

/** The previews generation makes of an image (decision 0038): of the original and the watermarked copy both sizes, of the skeleton the preview. */
export interface CopyPreviews {
  original: Record<PreviewSize, Buffer>;
  watermark: Record<PreviewSize, Buffer>;
  skeleton: Buffer;
}

/** An image's two copies, and their previews when asked for (none for an SVG). */
export interface Copies {
  skeleton: Buffer;
  watermark: Buffer;
  previews: CopyPreviews | undefined;
}

/**
 * Both copies of an image (generation). `frames`: the rects of the sprite frames on it when it is a page of a
 * sprite sheet (each is marked on its own), else none.
 */
export async function makeCopies(
  original: Buffer,
  path: string,
  productName: string,
  frames: readonly FrameRect[] = [],
): Promise<{ skeleton: Buffer; watermark: Buffer }> {
  const { skeleton, watermark } = await copiesOf(original, path, { productName, frames }, false);
  return { skeleton, watermark };
}

/**
 * Both copies of an image and their previews (generation): the image is decoded once, the original's previews
 * and the watermarked copy with its previews come from those pixels; the skeleton's preview needs the size only.
 * An animation's previews show its first page; an SVG has none (hasPreviews): `previews` is then undefined.
 */
export function makeCopiesWithPreviews(
  original: Buffer,
  path: string,
  productName: string,
  frames: readonly FrameRect[] = [],
): Promise<Copies> {
  return copiesOf(original, path, { productName, frames }, true);
}

/** The skeleton of an image alone: its header is all it reads (nothing of the picture is kept). */
export async function makeSkeleton(original: Buffer, path: string): Promise<Buffer> {
  const format = imageFormatOf(path);
  const copy = imageFormats[format].copiesAs;
  if (copy === 'svg') return svgSkeleton(original);
  const { header } = await openImage(original, format);
  return encodeCopy(blank(header.width, header.pageHeight, copy), copy, 'skeleton');
}

/** The watermarked copy of an image alone (see makeCopies). */
export async function makeWatermark(
  original: Buffer,
  path: string,
  productName: string,
  frames: readonly FrameRect[] = [],
): Promise<Buffer> {
  const format = imageFormatOf(path);
  const copy = imageFormats[format].copiesAs;
  if (copy === 'svg') return svgWatermark(original, productName);
  const { header, decode } = await openImage(original, format);
  const marks = { productName, frames };
  if (tooManyPixelsToHold(header)) return streamedWatermark(original, format, copy, header, marks);
  return oneBigImageAtATime(header, async () =>
    encodeWatermark(await drawMarks(await decode(), marks), copy, marks),
  );
}

/**
 * The watermarked copy encoded. A still PNG sprite sheet's is written in bands (banded-png.ts, decision 0061): a
 * version's first marked composition copies the bands its frames do not cross instead of drawing them all.
 */
function encodeWatermark(marked: Decoded, copy: RasterCopyFormat, marks: Marks): Promise<Buffer> {
  const { data, width, height, channels } = marked.pixels;
  const sheet = copy === 'png' && !marked.animation && (marks.frames?.length ?? 0) > 0;
  // Banded PNGs are 8-bit RGBA: other pixels (grey, no alpha, 16 bits) are encoded as sharp does.
  if (!sheet || channels !== 4 || data.length !== width * height * 4)
    return encodeCopy(marked, copy, 'watermark');
  return encodePlainBandedPng({ data, width, height });
}

function imageFormatOf(path: string): ImageFormatName {
  const format = imageFormatOfName(path);
  if (!format) throw new Error(`${path} is not an image`);
  return format;
}

/**
 * An image's copies, in the pipeline's order: decode once; the skeleton a blank of its size; the marks drawn on
 * the decoded pixels at full size; the watermarked copy encoded from the marked pixels; previews resized from the
 * decoded pixels (the original's) and from the marked ones (the watermarked copy's), never the other way round.
 * An SVG's copies are documents (svg-copies.ts).
 */
async function copiesOf(
  original: Buffer,
  path: string,
  marks: Marks,
  withPreviews: boolean,
): Promise<Copies> {
  const format = imageFormatOf(path);
  const copy = imageFormats[format].copiesAs;
  if (copy === 'svg') {
    const [skeleton, watermark] = await Promise.all([
      svgSkeleton(original),
      svgWatermark(original, marks.productName),
    ]);
    return { skeleton, watermark, previews: undefined };
  }
  const { header, decode } = await openImage(original, format);
  const skeleton = blank(header.width, header.pageHeight, copy);
  if (tooManyPixelsToHold(header)) {
    const watermark = await streamedWatermark(original, format, copy, header, marks);
    const previews = withPreviews
      ? {
          original: await previewsOfStored(original, path),
          watermark: await previewsOfStored(watermark, `copy.${copy}`),
          skeleton: await skeletonPreview(skeleton),
        }
      : undefined;
    return { skeleton: await blankCopy(path, header.width, header.pageHeight), watermark, previews };
  }
  return oneBigImageAtATime(header, async () => {
    const decoded = await decode();
    const [ofOriginal, marked] = await Promise.all([
      withPreviews ? encodePreviews(firstPage(decoded)) : undefined,
      drawMarks(decoded, marks),
    ]);
    const [skeletonBytes, watermark, ofWatermark, ofSkeleton] = await Promise.all([
      // The skeleton is the blank of its size, kept by format and size: a game's images of one size encode one.
      blankCopy(path, header.width, header.pageHeight),
      encodeWatermark(marked, copy, marks),
      withPreviews ? encodePreviews(firstPage(marked)) : undefined,
      withPreviews ? skeletonPreview(skeleton) : undefined,
    ]);
    const previews = ofOriginal && { original: ofOriginal, watermark: ofWatermark!, skeleton: ofSkeleton! };
    return { skeleton: skeletonBytes, watermark, previews };
  });
}

/**
 * Images held decoded at once over this many pixels a frame (64 MB of RGBA; an image and its marked pixels
 * are held together): one at a time in the process, so imagesAtOnce large images never hold gigabytes at once.
 */
const keptDecodedPixels = 16_000_000;

let bigImageTurn: Promise<unknown> = Promise.resolve();

/** Runs `work` on an image of `header`'s size, after every big image before it when it is big itself. */
function oneBigImageAtATime<T>(header: Header, work: () => Promise<T>): Promise<T> {
  if (header.pages * header.width * header.pageHeight <= keptDecodedPixels) return work();
  const turn = bigImageTurn.then(work, work);
  bigImageTurn = turn.catch(() => undefined);
  return turn;
}

/**
 * Whether an image's pages together are more pixels than the server holds decoded (an animation of many large
 * pages: a still image is at most limits.maxImagePixels, checked at upload).
 */
function tooManyPixelsToHold(header: Header): boolean {
  return header.pages * header.width * header.pageHeight > limits.maxImagePixels;
}

/**
 * The watermarked copy of an animation too large to hold decoded: sharp composites the marks as it streams the
 * pages from decoding to encoding (one operation between the two; nothing is resized), keeping their timing.
 */
async function streamedWatermark(
  original: Buffer,
  format: ImageFormatName,
  copy: RasterCopyFormat,
  header: Header,
  marks: Marks,
): Promise<Buffer> {
  const overlays = await markOverlays(header.width, header.pageHeight, marks, false);
  const pages = readImage(original, format, { pages: -1 }).composite(overlays);
  return copyEncoding(pages, copy, 'watermark').toBuffer();
}

/** Both previews of an encoded image, each decoded at its size (the stream-marked animation's). */
async function previewsOfStored(source: Buffer, name: string): Promise<Record<PreviewSize, Buffer>> {
  const [preview, thumb] = await Promise.all([
    makePreview(source, name, 'preview'),
    makePreview(source, name, 'thumb'),
  ]);
  return { preview, thumb };
}

/**
 * A blank of an image's copies (decision 0024): what the play origin serves in the skeleton and watermarked views
 * for an image whose copies are not made yet, never the original. Its pixel size, in its copy format, nothing
 * drawn (transparent, light grey for JPEG; an empty SVG document). Kept by format and size (a few KB each, at
 * most 8 MB in all), so a game of many new images of a size makes one.
 */
export function blankCopy(path: string, width: number, height: number): Promise<Buffer> {
  return blanks.forceFetch(`${imageFormats[imageFormatOf(path)].copiesAs}:${width}:${height}`);
}

const blanks = new LRUCache<string, Buffer>({
  maxSize: 8 * 1024 * 1024,
  sizeCalculation: (bytes) => Math.max(1, bytes.length),
  fetchMethod: async (key) => {
    const [copy, width, height] = key.split(':') as [RasterCopyFormat | 'svg', string, string];
    if (copy === 'svg')
      return Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${Number(width)}" height="${Number(height)}"></svg>\n`,
      );
    return encodeCopy(blank(Number(width), Number(height), copy), copy, 'skeleton');
  },
});

/**
 * The preview of an image's skeleton: its blank (transparent, light grey for JPEG, as the skeleton is) made
 * small to the preview's size; it needs the size only, never the pixels.
 */
function skeletonPreview(skeleton: Blank): Promise<Buffer> {
  const small = blankWithin(skeleton, previewSizes.preview.pixels);
  return skeletonPreviews.forceFetch(`${small.channels}:${small.width}:${small.height}`);
}

/** Skeleton previews by background and size (a few hundred bytes each): a game's images of one size share one. */
const skeletonPreviews = new LRUCache<string, Buffer>({
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (bytes) => Math.max(1, bytes.length),
  fetchMethod: (key) => {
    const [channels, width, height] = key.split(':').map(Number) as [number, number, number];
    return encodeBlankPreview(blank(width, height, channels === 3 ? 'jpeg' : 'png'));
  },
});

/** The preview of an image's skeleton made from the original (skeletonPreview): its header is all it reads. */
export async function skeletonPreviewOfOriginal(original: Buffer, path: string): Promise<Buffer> {
  const format = imageFormatOf(path);
  const copy = imageFormats[format].copiesAs;
  if (copy === 'svg') throw new Error(`${path} has no previews`);
  const { header } = await openImage(original, format);
  return skeletonPreview(blank(header.width, header.pageHeight, copy));
}
