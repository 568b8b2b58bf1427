import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { LRUCache } from 'lru-cache';
import sharp, { type OutputInfo, type OverlayOptions, type Sharp } from 'sharp';
import { imageFormatOfName, imageFormats, type CopyFormat, type ImageFormatName } from '@reskin/contract';
import { readImage } from './image-reading';
import {
  encodePreviews,
  makePreview,
  previewKey,
  previewKeysOf,
  previewPixelsOf,
  previewSizes,
  type Pixels,
  type PreviewSize,
} from './image-previews';

/** The two generated copies of every game image (DESIGN.md "Games, files, variants"). */
export type Variant = 'skeleton' | 'watermark';

/**
 * Where a variant of a stored original lives. It derives from the original's key, which is new for every
 * upload, so a replaced image's variants get new keys too and nothing stale is ever served.
 */
export function variantKey(storageKey: string, variant: Variant): string {
  return `${storageKey}.${variant}${extname(storageKey)}`;
}

/**
 * The key copies made again of an unchanged content are named after (decision 0046): beside the content's, with a
 * new part before its extension (which says the copies' format), so the play origin's kept bodies and ETags, the
 * previews and every browser's cache see new objects instead of old bytes under the same name.
 */
export function remadeCopiesKey(storageKey: string): string {
  const extension = extname(storageKey);
  return `${storageKey.slice(0, storageKey.length - extension.length)}.${randomBytes(6).toString('hex')}${extension}`;
}

/**
 * The previews generation makes of a stored original (decision 0038): of the original and its watermarked copy
 * both sizes, of its skeleton the preview (lib/image-previews.ts previewKey).
 */
export function copyPreviewKeys(storageKey: string): string[] {
  const [skeleton, watermark] = [variantKey(storageKey, 'skeleton'), variantKey(storageKey, 'watermark')];
  return [...previewKeysOf(storageKey), ...previewKeysOf(watermark), previewKey(skeleton, 'preview')];
}

/** Light grey for JPEG skeletons: JPEG has no transparency. */
const jpegSkeletonGrey = { r: 211, g: 211, b: 211 };

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The root element's attributes of an SVG document that fix its size (width, height, viewBox, preserveAspectRatio). */
function svgRootAttributes(
  svg: string,
): Partial<Record<'width' | 'height' | 'viewBox' | 'preserveAspectRatio', string>> {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attributes: Record<string, string> = {};
  for (const match of root.matchAll(
    /\s(width|height|viewBox|preserveAspectRatio)\s*=\s*("([^"]*)"|'([^']*)')/g,
  )) {
    attributes[match[1]!] = match[3] ?? match[4] ?? '';
  }
  return attributes;
}

/** The size of a watermark tile for an image of `width` x `height`, and its text's size. */
function tileGeometry(width: number, height: number): { width: number; height: number; fontSize: number } {
  const tileWidth = Math.max(1, Math.min(width, Math.max(96, Math.round(width / 3))));
  const tileHeight = Math.max(1, Math.min(height, Math.round(tileWidth / 2)));
  return { width: tileWidth, height: tileHeight, fontSize: Math.max(6, Math.round(tileWidth / 9)) };
}

/** What a watermark tile draws (the inside of its SVG): a faint diagonal and the product name across it. */
function tileMarkup(
  { width: tileWidth, height: tileHeight, fontSize }: ReturnType<typeof tileGeometry>,
  productName: string,
): string {
  return (
    `<line x1="0" y1="${tileHeight}" x2="${tileWidth}" y2="0" stroke="black" stroke-opacity="0.25" stroke-width="${Math.max(1, fontSize / 6)}"/>` +
    `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="bold" ` +
    `font-size="${fontSize}" fill="white" fill-opacity="0.5" stroke="black" stroke-opacity="0.35" stroke-width="${Math.max(0.5, fontSize / 24)}" ` +
    `transform="rotate(-25 ${tileWidth / 2} ${tileHeight / 2})">${escapeXml(productName)}</text>`
  );
}

/**
 * A tile of the watermark: the product name, diagonal, white with a dark outline and half transparent, so it
 * shows on light and dark art alike; scaled to the image so it stays readable on big and small images.
 */
export function watermarkTile(
  width: number,
  height: number,
  productName: string,
): { svg: string; width: number; height: number } {
  const tile = tileGeometry(width, height);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${tile.width}" height="${tile.height}">${tileMarkup(tile, productName)}</svg>`;
  return { svg, width: tile.width, height: tile.height };
}

/** A frame's rect on a sprite sheet: pixels from the sheet's top left. */
export interface FrameRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Frames at least this big carry the ordinary tiled mark (clipped to the frame); smaller ones a band with the name fitted to it. */
const tiledFrame = { w: 96, h: 48 };

/**
 * The mark of a frame too small for the tiled mark (a 12x12 sprite too): a band from its bottom left to its top
 * right, dark under light so it shows on any art, as thick as a fifth of the frame's shorter side, and the product
 * name along it where the frame is big enough for text of 6 px.
 */
function smallFrameMark(w: number, h: number, productName: string): string {
  const band = Math.max(2, Math.min(w, h) / 5);
  const diagonal = Math.hypot(w, h);
  const fontSize = Math.min(h / 2.5, (0.9 * diagonal) / (0.62 * Math.max(1, productName.length)));
  const angle = (-Math.atan2(h, w) * 180) / Math.PI;
  const text =
    fontSize < 6
      ? ''
      : `<text x="${w / 2}" y="${h / 2}" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="bold" ` +
        `font-size="${fontSize.toFixed(1)}" fill="white" fill-opacity="0.6" stroke="black" stroke-opacity="0.4" stroke-width="${Math.max(0.5, fontSize / 24).toFixed(2)}" ` +
        `transform="rotate(${angle.toFixed(1)} ${w / 2} ${h / 2})">${escapeXml(productName)}</text>`;
  return (
    `<line x1="0" y1="${h}" x2="${w}" y2="0" stroke="black" stroke-opacity="0.35" stroke-width="${band.toFixed(1)}"/>` +
    `<line x1="0" y1="${h}" x2="${w}" y2="0" stroke="white" stroke-opacity="0.5" stroke-width="${(band / 2).toFixed(1)}"/>` +
    text
  );
}

/**
 * What the mark of one frame of `w` x `h` draws, from the frame's top left (clipped to it where it is placed): big
 * frames get the image watermark's tile repeated from their top left (a pattern named `id`), small ones a band
 * with the name fitted to it.
 */
function frameMarkMarkup(w: number, h: number, productName: string, id: string): string {
  if (w < tiledFrame.w || h < tiledFrame.h) return smallFrameMark(w, h, productName);
  const tile = tileGeometry(w, h);
  return (
    `<defs><pattern id="${id}" width="${tile.width}" height="${tile.height}" patternUnits="userSpaceOnUse">${tileMarkup(tile, productName)}</pattern></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#${id})"/>`
  );
}

/**
 * Frame marks rendered to pixels (raw RGBA), by size and product name: a sheet's frames often share sizes (a grid's
 * all do), and rendering the text is most of a mark's cost. At most 32 MB are kept, the least recently used first.
 */
const renderedMarks = new LRUCache<string, Buffer>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (pixels) => Math.max(1, pixels.length),
});

/** Marks are rendered packed in rows on SVG sheets of this size, one sharp call a sheet; a bigger mark alone. */
const markSheet = { width: 2048, height: 512 };

/**
 * Renders the marks of frames of the given sizes. Packing them on a few SVG sheets saves a sharp call per size,
 * which is a third of a small mark's cost (measured: 500 sizes 1.45 s one by one, about half that packed).
 */
async function renderMarks(
  sizes: readonly { w: number; h: number }[],
  productName: string,
): Promise<Map<string, Buffer>> {
  const rendered = new Map<string, Buffer>();
  const render = async (
    placed: { w: number; h: number; x: number; y: number }[],
    width: number,
    height: number,
  ) => {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      placed
        .map(
          ({ w, h, x, y }, i) =>
            `<svg x="${x}" y="${y}" width="${w}" height="${h}" overflow="hidden">${frameMarkMarkup(w, h, productName, `t${i}`)}</svg>`,
        )
        .join('') +
      `</svg>`;
    const pixels = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
    for (const { w, h, x, y } of placed) {
      const mark = Buffer.alloc(w * h * 4);
      for (let row = 0; row < h; row++)
        pixels.copy(mark, row * w * 4, ((y + row) * width + x) * 4, ((y + row) * width + x + w) * 4);
      rendered.set(`${w}\n${h}`, mark);
    }
  };
  let batch: { w: number; h: number; x: number; y: number }[] = [];
  let [x, y, rowHeight] = [0, 0, 0];
  // Tallest first: rows of marks of about one height waste little of a sheet.
  for (const { w, h } of [...sizes].sort((a, b) => b.h - a.h)) {
    if (w > markSheet.width || h > markSheet.height) {
      await render([{ w, h, x: 0, y: 0 }], w, h);
      continue;
    }
    if (x + w > markSheet.width) [x, y, rowHeight] = [0, y + rowHeight, 0];
    if (y + h > markSheet.height) {
      await render(batch, markSheet.width, y);
      [batch, x, y, rowHeight] = [[], 0, 0, 0];
    }
    batch.push({ w, h, x, y });
    x += w;
    rowHeight = Math.max(rowHeight, h);
  }
  if (batch.length > 0) await render(batch, markSheet.width, y + rowHeight);
  return rendered;
}

/**
 * The marks of a sprite sheet's frames (decision 0028) as sharp overlays: one per frame, at its rect, so
 * a sprite cut from the sheet shows the mark however small it is (a 12x12 one too). Rects are clipped to the image
 * (a descriptor or grid may name frames partly or wholly outside it). Frames sharing a rect (aliases) are marked
 * once; each size is rendered once.
 */
async function frameOverlays(
  frames: readonly FrameRect[],
  width: number,
  height: number,
  productName: string,
): Promise<OverlayOptions[]> {
  const rects = new Map<string, FrameRect>();
  for (const frame of frames) {
    const rect = clippedRect(frame, width, height);
    if (rect) rects.set(`${rect.x},${rect.y},${rect.w},${rect.h}`, rect);
  }
  const marks = new Map<string, Buffer>();
  const missing = new Map<string, { w: number; h: number }>();
  for (const { w, h } of rects.values()) {
    const size = `${w}\n${h}`;
    const kept = renderedMarks.get(`${size}\n${productName}`);
    if (kept) marks.set(size, kept);
    else missing.set(size, { w, h });
  }
  for (const [size, pixels] of await renderMarks([...missing.values()], productName)) {
    marks.set(size, pixels);
    renderedMarks.set(`${size}\n${productName}`, pixels);
  }
  return [...rects.values()].map(({ x, y, w, h }) => ({
    input: marks.get(`${w}\n${h}`)!,
    raw: { width: w, height: h, channels: 4 },
    left: x,
    top: y,
    blend: 'over',
  }));
}

/** A frame's rect cut to an image of `width` x `height` in whole pixels; undefined when nothing of it is inside. */
function clippedRect({ x, y, w, h }: FrameRect, width: number, height: number): FrameRect | undefined {
  if (![x, y, w, h].every(Number.isFinite)) return undefined;
  const [left, top] = [Math.max(0, Math.round(x)), Math.max(0, Math.round(y))];
  const [right, bottom] = [Math.min(width, Math.round(x + w)), Math.min(height, Math.round(y + h))];
  return right > left && bottom > top ? { x: left, y: top, w: right - left, h: bottom - top } : undefined;
}

/**
 * Encodes a copy in its contract format (a BMP's or an icon's copies are PNG: sharp cannot write those). The
 * generation bench's bare baseline uses it too, so both always do the same sharp work.
 *
 * Efforts chosen by measurement (the bench's 200 images, CPU time per 50 of a format): a GIF skeleton with 2
 * colours, effort 1, no dithering 0.8-1.0 s instead of 1.9-2.1 s, same bytes; a WebP watermark at effort 2
 * 2.3-2.4 s instead of 3.4-3.5 s for 2.5% more bytes (effort 6: 5-6 s for 1% fewer); a GIF watermark at
 * effort 4 3.2-3.6 s instead of 4.7-4.8 s for 0.9% more bytes (effort 1 is slower and 70% bigger). PNG keeps
 * zlib level 6: level 9 took 75% more time for 10% fewer bytes, level 3 12% less for 6% more; a palette
 * took three times as long. A PNG skeleton (1.5 KB on average) gains nothing worth its time from a palette.
 */
export function encodeCopy(image: Sharp, format: Exclude<CopyFormat, 'svg'>, copy: Variant): Sharp {
  const skeleton = copy === 'skeleton';
  switch (format) {
    case 'png':
      return image.png();
    case 'jpeg':
      return image.jpeg({ quality: 90 });
    case 'webp':
      // Lossless keeps a skeleton's transparent pixels exactly transparent.
      return skeleton ? image.webp({ lossless: true }) : image.webp({ quality: 90, effort: 2 });
    case 'avif':
      return skeleton ? image.avif({ lossless: true }) : image.avif({ quality: 70 });
    case 'gif':
      // A skeleton has one colour (transparent): nothing to search a palette for or to dither.
      return skeleton ? image.gif({ colours: 2, effort: 1, dither: 0 }) : image.gif({ effort: 4 });
  }
}

/** The background of a skeleton: transparent, or light grey for JPEG, which has no transparency. */
export function skeletonBackground(format: Exclude<CopyFormat, 'svg'>): {
  channels: 3 | 4;
  background: { r: number; g: number; b: number; alpha?: number };
} {
  return format === 'jpeg'
    ? { channels: 3, background: jpegSkeletonGrey }
    : { channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } };
}

function imageFormatOf(path: string): ImageFormatName {
  const format = imageFormatOfName(path);
  if (!format) throw new Error(`${path} is not an image`);
  return format;
}

/** An image opened once for both its copies: its frame size as a browser shows it, and sharp reading its pixels. */
interface OpenedImage {
  original: Buffer;
  copy: CopyFormat;
  width: number;
  height: number;
  /** sharp over every frame of the image (an animation's copy keeps them all). */
  pixels: Sharp;
  /** An animation's frames (1: a still image). */
  pages: number;
}

/**
 * Reads an image's header once (BMP and ICO are decoded here once). Only an animation is opened a second time,
 * since sharp reads every frame only when asked to at the start.
 */
async function openImage(original: Buffer, path: string): Promise<OpenedImage> {
  const format = imageFormatOf(path);
  const copy = imageFormats[format].copiesAs;
  const image = readImage(original, format);
  const metadata = await image.metadata();
  const pages = metadata.pages ?? 1;
  const pixels = pages > 1 ? readImage(original, format, { pages: -1 }) : image;
  return {
    original,
    copy,
    width: metadata.width,
    height: metadata.pageHeight ?? metadata.height,
    pixels,
    pages,
  };
}

/** The root attributes that give an SVG copy the original's size: its own, else the pixel size it renders at. */
function svgSizeAttributes(root: Record<string, string>, width: number, height: number): string {
  const attributes: Record<string, string> = {
    width: root.width ?? String(width),
    height: root.height ?? String(height),
  };
  if (root.viewBox !== undefined) attributes.viewBox = root.viewBox;
  if (root.preserveAspectRatio !== undefined) attributes.preserveAspectRatio = root.preserveAspectRatio;
  return Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
}

/** Rendering scale of an SVG's watermarked raster: twice its size where that stays small, so it stays sharp. */
const svgRasterScale = (width: number, height: number) => (width * height * 4 <= 4_000_000 ? 2 : 1);

/**
 * The skeleton of an image: the same width and height, with nothing drawn: fully transparent, or flat light
 * grey for JPEG; in the image's own format, or PNG where the server cannot write it (contract `copiesAs`).
 * Nothing of the picture is kept, so its pixels are never decoded. An SVG becomes an empty document with the
 * same width, height and viewBox.
 */
function skeletonOf({ original, copy, width, height }: OpenedImage): Promise<Buffer> {
  if (copy === 'svg') {
    const root = svgRootAttributes(original.toString('utf8'));
    return Promise.resolve(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg"${svgSizeAttributes(root, width, height)}></svg>\n`,
      ),
    );
  }
  return encodeCopy(blankImage(width, height, copy), copy, 'skeleton').toBuffer();
}

/**
 * A blank image of a skeleton's background: one pixel extended to the size. The same pixels as sharp's `create`,
 * which works out the colour of every pixel anew (the bench's 200 skeletons took 3.3-3.7 s of CPU
 * with `create`, 2.0-2.1 s so; the encoded bytes are identical), and, unlike a buffer of the whole image, in
 * constant memory however large the image.
 */
function blankImage(width: number, height: number, copy: Exclude<CopyFormat, 'svg'>): Sharp {
  const { channels, background } = skeletonBackground(copy);
  const { r, g, b, alpha = 1 } = background;
  const pixel = Buffer.from(channels === 4 ? [r, g, b, Math.round(alpha * 255)] : [r, g, b]);
  return sharp(pixel, { raw: { width: 1, height: 1, channels } }).extend({
    right: width - 1,
    bottom: height - 1,
    background,
  });
}

/**
 * The watermarked copy of an image: the same width and height (every frame of an animation keeps its
 * timing), with the product name tiled over it, in the format of the contract's `copiesAs`. A still image that is
 * a page of a sprite sheet (`frames`: the rects of its frames) also gets a mark in every frame, on top (marked).
 *
 * An SVG is rendered to pixels with the mark and embedded as a PNG in an SVG of the original's width, height
 * and viewBox: the mark is part of the pixels, so editing the document cannot remove it.
 */
async function watermarkOf(
  { original, copy, width, height, pixels, pages }: OpenedImage,
  productName: string,
  frames: readonly FrameRect[],
): Promise<Buffer> {
  if (copy === 'svg') {
    const raster = sharp(original, { density: 72 * svgRasterScale(width, height) });
    const rendered = await raster.metadata();
    const tile = watermarkTile(rendered.width, rendered.height, productName);
    const png = await raster
      .composite([{ input: Buffer.from(tile.svg), tile: true, blend: 'over' }])
      .png()
      .toBuffer();
    const root = svgRootAttributes(original.toString('utf8'));
    const box = root.viewBox
      ?.trim()
      .split(/[\s,]+/)
      .map(Number);
    const [x, y, w, h] = box && box.length === 4 && box.every(Number.isFinite) ? box : [0, 0, width, height];
    return Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg"${svgSizeAttributes(root, width, height)}>` +
        `<image x="${x}" y="${y}" width="${w}" height="${h}" preserveAspectRatio="none" href="data:image/png;base64,${png.toString('base64')}"/>` +
        `</svg>\n`,
    );
  }
  return encodeCopy(
    await marked(pixels, { width, height, pages }, productName, frames),
    copy,
    'watermark',
  ).toBuffer();
}

/**
 * `pixels` (an image of `width` x `height` frames, `pages` of them) with the watermark composited over them: the
 * tiled mark over the whole image always, and on a still sprite sheet each frame's own mark on top of it (frames
 * add marks, never replace the tile: whatever grid or descriptor an image has, all of it stays marked).
 */
async function marked(
  pixels: Sharp,
  { width, height, pages }: Pick<OpenedImage, 'width' | 'height' | 'pages'>,
  productName: string,
  frames: readonly FrameRect[],
): Promise<Sharp> {
  const tile = watermarkTile(width, height, productName);
  const tilePixels = await renderedTiles.forceFetch(tile.svg);
  const overlays: OverlayOptions[] = [
    {
      input: tilePixels,
      raw: { width: tile.width, height: tile.height, channels: 4 },
      tile: true,
      blend: 'over',
    },
  ];
  if (frames.length > 0 && pages === 1)
    overlays.push(...(await frameOverlays(frames, width, height, productName)));
  return pixels.composite(overlays);
}

/**
 * Watermark tiles rendered to pixels, by their SVG: images of the same width share a tile, and rendering its
 * text is a fifth of a small image's watermark (no work done twice). The pixels are those sharp renders
 * from the SVG when compositing it directly. At most 32 MB are kept, the least recently used going first.
 */
const renderedTiles = new LRUCache<string, Buffer>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (pixels) => pixels.length,
  fetchMethod: (svg) => sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer(),
});

/** Forgets the rendered tiles and frame marks (the generation bench measures a server's first generation). */
export function forgetRenderedTiles(): void {
  renderedTiles.clear();
  renderedMarks.clear();
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
    const [copy, width, height] = key.split(':') as [CopyFormat, string, string];
    if (copy === 'svg')
      return Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${Number(width)}" height="${Number(height)}"></svg>\n`,
      );
    return encodeCopy(blankImage(Number(width), Number(height), copy), copy, 'skeleton').toBuffer();
  },
});

/**
 * Both copies of an image (generation), its header read once. `frames`: the rects of the sprite frames on it when
 * it is a page of a sprite sheet (each is marked on its own), else none.
 */
export async function makeCopies(
  original: Buffer,
  path: string,
  productName: string,
  frames: readonly FrameRect[] = [],
): Promise<{ skeleton: Buffer; watermark: Buffer }> {
  const image = await openImage(original, path);
  const [skeleton, watermark] = await Promise.all([
    skeletonOf(image),
    watermarkOf(image, productName, frames),
  ]);
  return { skeleton, watermark };
}

/** The previews generation makes of an image (decision 0038): of the original and the watermarked copy both sizes, of the skeleton the preview. */
export interface CopyPreviews {
  original: Record<PreviewSize, Buffer>;
  watermark: Record<PreviewSize, Buffer>;
  skeleton: Buffer;
}

/**
 * An image decoded once is kept as raw pixels (for the copies and the previews from the same pixels) up to this
 * many pixels (64 MB of RGBA, at imagesAtOnce images at a time); a bigger one is decoded again for its previews,
 * shrunk while decoding where the format can.
 */
const keptDecodedPixels = 16_000_000;

/**
 * Both copies of an image and their previews (generation): a still image is decoded once, and the
 * original's previews and the watermarked copy with its previews are made from those pixels in memory; the
 * skeleton's preview needs the size only. An animation's previews show its first frame; an SVG has none
 * (hasPreviews): `previews` is then undefined.
 */
export async function makeCopiesWithPreviews(
  original: Buffer,
  path: string,
  productName: string,
  frames: readonly FrameRect[] = [],
): Promise<{ skeleton: Buffer; watermark: Buffer; previews: CopyPreviews | undefined }> {
  const image = await openImage(original, path);
  const { copy, width, height, pages } = image;
  if (copy === 'svg')
    return { ...(await makeCopies(original, path, productName, frames)), previews: undefined };
  const skeletonPreview = skeletonPreviewOf(width, height, copy);
  if (pages > 1 || width * height > keptDecodedPixels) {
    const [skeleton, watermark] = await Promise.all([
      skeletonOf(image),
      watermarkOf(image, productName, frames),
    ]);
    const copyName = `copy.${copy}`;
    const previewsOf = async (source: Buffer, name: string) => {
      const [preview, thumb] = await Promise.all([
        makePreview(source, name, 'preview'),
        makePreview(source, name, 'thumb'),
      ]);
      return { preview, thumb };
    };
    const [originalPreviews, watermarkPreviews] = await Promise.all([
      previewsOf(original, path),
      previewsOf(watermark, copyName),
    ]);
    return {
      skeleton,
      watermark,
      previews: { original: originalPreviews, watermark: watermarkPreviews, skeleton: await skeletonPreview },
    };
  }
  // Decoded once, and one pipeline in order: the mark is drawn at full size (sharp composites after it resizes, so
  // marks never go on a pipeline that is then made small), the watermarked copy is encoded from those composed
  // pixels and its previews are resized from them; the original's previews from the decoded pixels.
  const originalPixels = pixelsOf(await image.pixels.raw().toBuffer({ resolveWithObject: true }));
  const markedPixels = pixelsOf(
    await (
      await marked(sharpOf(originalPixels), image, productName, frames)
    )
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const [small, markedSmall] = await Promise.all([
    previewPixelsOf(sharpOf(originalPixels)),
    previewPixelsOf(sharpOf(markedPixels)),
  ]);
  const [skeleton, watermark, originalPreviews, watermarkPreviews, skeletonPreviewBytes] = await Promise.all([
    skeletonOf(image),
    encodeCopy(sharpOf(markedPixels), copy, 'watermark').toBuffer(),
    encodePreviews(small),
    encodePreviews(markedSmall),
    skeletonPreview,
  ]);
  return {
    skeleton,
    watermark,
    previews: { original: originalPreviews, watermark: watermarkPreviews, skeleton: skeletonPreviewBytes },
  };
}

function pixelsOf({ data, info }: { data: Buffer; info: OutputInfo }): Pixels {
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function sharpOf({ data, width, height, channels }: Pixels): Sharp {
  return sharp(data, { raw: { width, height, channels } });
}

/**
 * The preview of an image's skeleton: nothing drawn (transparent, light grey for JPEG, as the skeleton is) at the
 * preview size of an image of `width` x `height`; it needs the size only, never the pixels.
 */
export function skeletonPreviewOf(
  width: number,
  height: number,
  copy: Exclude<CopyFormat, 'svg'>,
): Promise<Buffer> {
  const box = previewSizes.preview.pixels;
  const scale = Math.min(1, box / Math.max(width, height));
  return skeletonPreviews.forceFetch(
    `${copy === 'jpeg' ? 'grey' : 'clear'}:${Math.max(1, Math.round(width * scale))}:${Math.max(1, Math.round(height * scale))}`,
  );
}

/** Skeleton previews by background and size (a few hundred bytes each): a game's images of one size share one. */
const skeletonPreviews = new LRUCache<string, Buffer>({
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (bytes) => Math.max(1, bytes.length),
  fetchMethod: (key) => {
    const [background, width, height] = key.split(':') as [string, string, string];
    return blankImage(Number(width), Number(height), background === 'grey' ? 'jpeg' : 'png')
      .webp({ lossless: true, effort: 0 })
      .toBuffer();
  },
});

/** The preview of an image's skeleton made from the original (skeletonPreviewOf): its header is all it reads. */
export async function skeletonPreviewOfOriginal(original: Buffer, path: string): Promise<Buffer> {
  const { copy, width, height } = await openImage(original, path);
  if (copy === 'svg') throw new Error(`${path} has no previews`);
  return skeletonPreviewOf(width, height, copy);
}

/** The skeleton of an image alone (see skeletonOf). */
export async function makeSkeleton(original: Buffer, path: string): Promise<Buffer> {
  return skeletonOf(await openImage(original, path));
}

/** The watermarked copy of an image alone (see watermarkOf). */
export async function makeWatermark(
  original: Buffer,
  path: string,
  productName: string,
  frames: readonly FrameRect[] = [],
): Promise<Buffer> {
  return watermarkOf(await openImage(original, path), productName, frames);
}
