import type { Sharp } from 'sharp';
import { sharp } from './sharp';
import { limits, type CopyFormat, type ImageFormatName } from '@reskin/contract';
import { readImage } from './image-reading';
import { markOverlays, type Marks } from './marks';
import { openPixels, type Pixels, type RgbaImage } from './pixels';

// The image pipeline (decision 0059): generation, previews, marks and sheet composition are explicit steps on
// decoded pixels, called in order by the code that needs them: decode once, draw marks at full size, derive
// previews from the result, encode. sharp does one operation per step (decode, composite, resize, encode),
// never a chain of two whose order matters, so no step can be reordered by the library's pipeline.

/** The two generated copies of every game image (DESIGN.md "Games, files, variants"). */
export type Variant = 'skeleton' | 'watermark';

/** A copy's format the server writes as pixels: every copy format but SVG (an SVG's copies are documents). */
export type RasterCopyFormat = Exclude<CopyFormat, 'svg'>;

/** An animation's pages and timing: its pixels are its pages one under another, its copy keeps the timing. */
export interface Animation {
  pages: number;
  pageHeight: number;
  delay?: number[];
  loop?: number;
}

/** An image decoded: every page's pixels, and its pages and timing when it is an animation. */
export interface Decoded {
  pixels: Pixels;
  animation?: Animation;
}

/** An image's header: the size of a frame as a browser shows it (an animation's page) and its pages. */
export interface Header extends Animation {
  width: number;
}

/**
 * An image opened: its header read (no pixel decoded yet), and `decode`, which decodes every page of it once into
 * raw pixels in the channels it has (RGB stays RGB). Damaged data fails as sharp's default read does (generation
 * reports the image), unlike the artist's upload, which refuses it earlier (pixels.ts decodePixels).
 */
export async function openImage(
  input: Buffer,
  format: ImageFormatName,
): Promise<{ header: Header; decode: () => Promise<Decoded> }> {
  const image = readImage(input, format, { pages: -1 });
  const { width, height, pages = 1, pageHeight, delay, loop } = await image.metadata();
  const header = { width, pageHeight: pageHeight ?? height, pages, delay, loop };
  const decode = async (): Promise<Decoded> => {
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    const pixels = { data, width: info.width, height: info.height, channels: info.channels };
    return pages > 1
      ? { pixels, animation: { pages, pageHeight: header.pageHeight, delay, loop } }
      : { pixels };
  };
  return { header, decode };
}

/**
 * A stored image decoded at a size within `box` (the longer side at most, never enlarged): previews of images
 * with nothing to draw on them (an original, a watermarked copy, a version's file). Its first page, read in one
 * pass and shrunk while decoding where the format can (JPEG, WebP); decoding and shrinking are one operation.
 */
export async function decodeWithin(input: Buffer, format: ImageFormatName, box: number): Promise<Pixels> {
  const image = readImage(input, format, { sequentialRead: true, limitInputPixels: limits.maxImagePixels });
  return rawPixels(image.resize(within(box)));
}

/** Nothing drawn, of one colour: a skeleton. Not held in memory: drawn by the step that encodes it. */
export interface Blank {
  width: number;
  height: number;
  channels: 3 | 4;
  background: { r: number; g: number; b: number; alpha?: number };
}

/** A blank of a skeleton's background for a copy of this format: transparent, light grey for JPEG. */
export function blank(width: number, height: number, format: RasterCopyFormat): Blank {
  return { width, height, ...skeletonBackground(format) };
}

/** Light grey for JPEG skeletons: JPEG has no transparency. */
const jpegSkeletonGrey = { r: 211, g: 211, b: 211 };

/** The background of a skeleton: transparent, or light grey for JPEG, which has no transparency. */
export function skeletonBackground(format: RasterCopyFormat): Pick<Blank, 'channels' | 'background'> {
  return format === 'jpeg'
    ? { channels: 3, background: jpegSkeletonGrey }
    : { channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } };
}

/**
 * The watermark drawn at full size onto decoded pixels: the tile over the whole image, and on a still sprite
 * sheet each frame's mark on top (marks.ts). One composite of the marks (rendered and kept) over the pixels.
 */
export async function drawMarks(image: Decoded, marks: Marks): Promise<Decoded> {
  const { pixels, animation } = image;
  const overlays = await markOverlays(
    pixels.width,
    animation?.pageHeight ?? pixels.height,
    marks,
    !animation,
  );
  const marked = await rawPixels(openPixels(pixels, animation?.pageHeight).composite(overlays));
  return { pixels: marked, animation };
}

/** The first page of decoded pixels (an animation's previews show it); a still image's pixels as they are. */
export function firstPage({ pixels, animation }: Decoded): Pixels {
  if (!animation) return pixels;
  const { data, width, channels } = pixels;
  const height = animation.pageHeight;
  return { data: data.subarray(0, width * height * channels), width, height, channels };
}

/** Pixels made smaller to fit `box` (the longer side at most, never enlarged): previews. */
export function resizeWithin(pixels: Pixels, box: number): Promise<Pixels> {
  return rawPixels(openPixels(pixels).resize(within(box)));
}

/** A blank made smaller to fit `box`: only its size changes. */
export function blankWithin(image: Blank, box: number): Blank {
  const scale = Math.min(1, box / Math.max(image.width, image.height));
  const size = (side: number) => Math.max(1, Math.round(side * scale));
  return { ...image, width: size(image.width), height: size(image.height) };
}

/** A copy encoded in its format (copyEncoding's settings); an animation's keeps its pages and timing. */
export function encodeCopy(image: Decoded | Blank, format: RasterCopyFormat, copy: Variant): Promise<Buffer> {
  if ('background' in image) return copyEncoding(blankImage(image), format, copy).toBuffer();
  const { pixels, animation } = image;
  return copyEncoding(openPixels(pixels, animation?.pageHeight), format, copy, animation).toBuffer();
}

/**
 * sharp set to encode a copy in its contract format (a BMP's or an icon's copies are PNG: sharp cannot write
 * those). The generation bench's bare baseline uses it too, so both always do the same sharp work.
 *
 * Efforts chosen by measurement (the bench's 200 images, CPU time per 50 of a format): a GIF skeleton with 2
 * colours, effort 1, no dithering 0.8-1.0 s instead of 1.9-2.1 s, same bytes; a WebP watermark at effort 2
 * 2.3-2.4 s instead of 3.4-3.5 s for 2.5% more bytes (effort 6: 5-6 s for 1% fewer); a GIF watermark at
 * effort 4 3.2-3.6 s instead of 4.7-4.8 s for 0.9% more bytes (effort 1 is slower and 70% bigger). PNG keeps
 * zlib level 6: level 9 took 75% more time for 10% fewer bytes, level 3 12% less for 6% more; a palette
 * took three times as long. A PNG skeleton (1.5 KB on average) gains nothing worth its time from a palette.
 */
export function copyEncoding(
  image: Sharp,
  format: RasterCopyFormat,
  copy: Variant,
  animation?: Pick<Animation, 'delay' | 'loop'>,
): Sharp {
  const skeleton = copy === 'skeleton';
  const timing = animation ? { delay: animation.delay, loop: animation.loop } : {};
  switch (format) {
    case 'png':
      return image.png();
    case 'jpeg':
      return image.jpeg({ quality: 90 });
    case 'webp':
      // Lossless keeps a skeleton's transparent pixels exactly transparent.
      return skeleton
        ? image.webp({ lossless: true, ...timing })
        : image.webp({ quality: 90, effort: 2, ...timing });
    case 'avif':
      return skeleton ? image.avif({ lossless: true }) : image.avif({ quality: 70 });
    case 'gif':
      // A skeleton has one colour (transparent): nothing to search a palette for or to dither.
      return skeleton
        ? image.gif({ colours: 2, effort: 1, dither: 0, ...timing })
        : image.gif({ effort: 4, ...timing });
  }
}

/** A blank as a lossless WebP (a skeleton's preview: a few hundred bytes). */
export function encodeBlankPreview(image: Blank): Promise<Buffer> {
  return blankImage(image).webp({ lossless: true, effort: 0 }).toBuffer();
}

/**
 * A version's composed sheet encoded in its own format (decision 0028): lossless where the format can be, JPEG at
 * a high quality on white (no transparency); PNG for the formats sharp cannot write (a BMP sheet is stored as
 * PNG bytes under its own path).
 */
export function encodeSheet(pixels: RgbaImage, format: ImageFormatName): Promise<Buffer> {
  const sheet = openPixels(pixels);
  switch (format) {
    case 'jpeg':
      return sheet.flatten({ background: '#ffffff' }).jpeg({ quality: 95 }).toBuffer();
    case 'webp':
      return sheet.webp({ lossless: true }).toBuffer();
    case 'avif':
      return sheet.avif({ lossless: true }).toBuffer();
    case 'gif':
      return sheet.gif().toBuffer();
    default:
      return sheet.png().toBuffer();
  }
}

/**
 * A blank's pixels: one pixel extended to the size. The same pixels as sharp's `create`, which works out the
 * colour of every pixel anew (the bench's 200 skeletons took 3.3-3.7 s of CPU with `create`, 2.0-2.1 s so; the
 * encoded bytes are identical), and, unlike a buffer of the whole image, in constant memory however large.
 */
function blankImage({ width, height, channels, background }: Blank): Sharp {
  const { r, g, b, alpha = 1 } = background;
  const pixel = Buffer.from(channels === 4 ? [r, g, b, Math.round(alpha * 255)] : [r, g, b]);
  return sharp(pixel, { raw: { width: 1, height: 1, channels } }).extend({
    right: width - 1,
    bottom: height - 1,
    background,
  });
}

/** sharp's resize into a square box, keeping the aspect ratio and never enlarging. */
function within(box: number) {
  return {
    width: box,
    height: box,
    fit: 'inside',
    withoutEnlargement: true,
    fastShrinkOnLoad: true,
  } as const;
}

async function rawPixels(image: Sharp): Promise<Pixels> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}
