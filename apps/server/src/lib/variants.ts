import { extname } from 'node:path';
import { LRUCache } from 'lru-cache';
import sharp, { type Sharp } from 'sharp';
import { imageFormatOfName, imageFormats, type CopyFormat, type ImageFormatName } from '@reskin/contract';
import { readImage } from './image-reading';

/** The two generated copies of every game image (DESIGN.md "Games, files, variants"). */
export type Variant = 'skeleton' | 'watermark';

/**
 * Where a variant of a stored original lives. It derives from the original's key, which is new for every
 * upload, so a replaced image's variants get new keys too and nothing stale is ever served.
 */
export function variantKey(storageKey: string, variant: Variant): string {
  return `${storageKey}.${variant}${extname(storageKey)}`;
}

/** Light grey for JPEG skeletons: JPEG has no transparency. */
const jpegSkeletonGrey = { r: 211, g: 211, b: 211 };

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The root element's attributes of an SVG document that fix its size (width, height, viewBox, preserveAspectRatio). */
function svgRootAttributes(svg: string): Partial<Record<'width' | 'height' | 'viewBox' | 'preserveAspectRatio', string>> {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attributes: Record<string, string> = {};
  for (const match of root.matchAll(/\s(width|height|viewBox|preserveAspectRatio)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    attributes[match[1]!] = match[3] ?? match[4] ?? '';
  }
  return attributes;
}

/**
 * A tile of the watermark: the product name, diagonal, white with a dark outline and half transparent, so it
 * shows on light and dark art alike; scaled to the image so it stays readable on big and small images.
 */
export function watermarkTile(width: number, height: number, productName: string): { svg: string; width: number; height: number } {
  const tileWidth = Math.max(1, Math.min(width, Math.max(96, Math.round(width / 3))));
  const tileHeight = Math.max(1, Math.min(height, Math.round(tileWidth / 2)));
  const fontSize = Math.max(6, Math.round(tileWidth / 9));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${tileWidth}" height="${tileHeight}">` +
    `<line x1="0" y1="${tileHeight}" x2="${tileWidth}" y2="0" stroke="black" stroke-opacity="0.25" stroke-width="${Math.max(1, fontSize / 6)}"/>` +
    `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="bold" ` +
    `font-size="${fontSize}" fill="white" fill-opacity="0.5" stroke="black" stroke-opacity="0.35" stroke-width="${Math.max(0.5, fontSize / 24)}" ` +
    `transform="rotate(-25 ${tileWidth / 2} ${tileHeight / 2})">${escapeXml(productName)}</text></svg>`;
  return { svg, width: tileWidth, height: tileHeight };
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
  return format === 'jpeg' ? { channels: 3, background: jpegSkeletonGrey } : { channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } };
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
  return { original, copy, width: metadata.width, height: metadata.pageHeight ?? metadata.height, pixels };
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
    return Promise.resolve(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"${svgSizeAttributes(root, width, height)}></svg>\n`));
  }
  return encodeCopy(blankImage(width, height, copy), copy, 'skeleton').toBuffer();
}

/**
 * A blank image of a skeleton's background: one pixel extended to the size. The same pixels as sharp's `create`,
 * which works out the colour of every pixel anew (issue 15: the bench's 200 skeletons took 3.3-3.7 s of CPU
 * with `create`, 2.0-2.1 s so; the encoded bytes are identical), and, unlike a buffer of the whole image, in
 * constant memory however large the image.
 */
function blankImage(width: number, height: number, copy: Exclude<CopyFormat, 'svg'>): Sharp {
  const { channels, background } = skeletonBackground(copy);
  const { r, g, b, alpha = 1 } = background;
  const pixel = Buffer.from(channels === 4 ? [r, g, b, Math.round(alpha * 255)] : [r, g, b]);
  return sharp(pixel, { raw: { width: 1, height: 1, channels } }).extend({ right: width - 1, bottom: height - 1, background });
}

/**
 * The watermarked copy of an image: the same width and height (every frame of an animation keeps its
 * timing), with the product name tiled over it, in the format of the contract's `copiesAs`.
 *
 * An SVG is rendered to pixels with the mark and embedded as a PNG in an SVG of the original's width, height
 * and viewBox: the mark is part of the pixels, so editing the document cannot remove it.
 */
async function watermarkOf({ original, copy, width, height, pixels }: OpenedImage, productName: string): Promise<Buffer> {
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
  const tile = watermarkTile(width, height, productName);
  const tilePixels = await renderedTiles.forceFetch(tile.svg);
  return encodeCopy(
    pixels.composite([{ input: tilePixels, raw: { width: tile.width, height: tile.height, channels: 4 }, tile: true, blend: 'over' }]),
    copy,
    'watermark',
  ).toBuffer();
}

/**
 * Watermark tiles rendered to pixels, by their SVG: images of the same width share a tile, and rendering its
 * text is a fifth of a small image's watermark (issue 15: no work done twice). The pixels are those sharp renders
 * from the SVG when compositing it directly. At most 32 MB are kept, the least recently used going first.
 */
const renderedTiles = new LRUCache<string, Buffer>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (pixels) => pixels.length,
  fetchMethod: (svg) => sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer(),
});

/** Forgets the rendered tiles (the generation bench measures a server's first generation). */
export function forgetRenderedTiles(): void {
  renderedTiles.clear();
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
    if (copy === 'svg') return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${Number(width)}" height="${Number(height)}"></svg>\n`);
    return encodeCopy(blankImage(Number(width), Number(height), copy), copy, 'skeleton').toBuffer();
  },
});

/** Both copies of an image (generation), its header read once. */
export async function makeCopies(original: Buffer, path: string, productName: string): Promise<{ skeleton: Buffer; watermark: Buffer }> {
  const image = await openImage(original, path);
  const [skeleton, watermark] = await Promise.all([skeletonOf(image), watermarkOf(image, productName)]);
  return { skeleton, watermark };
}

/** The skeleton of an image alone (see skeletonOf). */
export async function makeSkeleton(original: Buffer, path: string): Promise<Buffer> {
  return skeletonOf(await openImage(original, path));
}

/** The watermarked copy of an image alone (see watermarkOf). */
export async function makeWatermark(original: Buffer, path: string, productName: string): Promise<Buffer> {
  return watermarkOf(await openImage(original, path), productName);
}
