import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { crc32 } from 'node:zlib';
import type { Metadata } from 'sharp';
import { imageFormatOfName, limits, type ImageFormatName } from '@reskin/contract';
import { BitmapDecodeError } from './bitmap-decoding';
import { extensionOf } from '../game-paths';
import { readImage } from './image-reading';

export interface ImageInfo {
  width: number;
  height: number;
  /** The contract's format name (png, jpeg, gif, webp, avif, bmp, ico, svg). */
  format: ImageFormatName;
}

/** Why a file is not the image its name promises. */
export class InvalidImageError extends Error {}

/**
 * An .svg that is not a drawable image (an SVG web font of `<font>`/`<glyph>`, an empty file, anything sharp
 * cannot render at a size): a game upload stores it as an 'other' file; an artist's replacement is refused.
 */
export class UndrawableSvgError extends InvalidImageError {}

/** sharp's name for what it read (AVIF is 'heif' to it; BMP and ICO are decoded before sharp sees them). */
const sharpFormatOf: Record<ImageFormatName, string> = {
  png: 'png',
  jpeg: 'jpeg',
  gif: 'gif',
  webp: 'webp',
  avif: 'heif',
  bmp: 'raw',
  ico: 'raw',
  svg: 'svg',
};

/**
 * Reads an image's pixel size from its content (never from its name), checks that the content is the format
 * its extension says and is not larger than the decoding limit, and then that its data is whole, so a file whose
 * header is fine but whose data is cut short or damaged is refused here, not later by generation or a browser:
 * a PNG by its chunks (pngIsWhole), any other format by decoding every pixel of every frame. For animated images
 * the size is one frame's.
 */
export async function inspectImage(content: Readable, path: string): Promise<ImageInfo> {
  const format = imageFormatOfName(path);
  if (!format) {
    content.resume();
    throw new InvalidImageError(`${path} is not an image.`);
  }
  // sharp would collect a stream into one buffer too; the upload's own limit bounds it.
  return inspectBytes(await buffer(content), path);
}

/** inspectImage of bytes already in memory (the intake's, decision 0055; a zip's entries, decision 0061). */
export async function inspectBytes(input: Buffer, path: string): Promise<ImageInfo> {
  const info = await readHeader(input, path);
  await assertComplete(input, info, path);
  return info;
}

/** inspectBytes' check of every byte of the image's data, once the header (`info`) was read. */
export async function assertComplete(input: Buffer, info: ImageInfo, path: string): Promise<void> {
  const cutOrDamaged = () =>
    refusal(
      info.format,
      `${path} is not a complete ${info.format.toUpperCase()} file: it is cut short or damaged.`,
    );
  if (info.format === 'png') {
    if (!pngIsWhole(input)) throw cutOrDamaged();
    return;
  }
  try {
    // Shrinking to a few pixels reads every row of every frame, in strips, without a decoded copy of the
    // whole image in memory (and fast: JPEG and WebP decode at a reduced scale, still reading all their data).
    // 'error' refuses truncated and corrupt data but not mere warnings, which browsers show without complaint.
    await readImage(input, info.format, { limitInputPixels: false, pages: -1, failOn: 'error' })
      .resize(8, 8, { fit: 'fill' })
      .raw()
      .toBuffer();
  } catch {
    throw cutOrDamaged();
  }
}

/**
 * Whether a PNG is whole (decision 0061): its chunks follow one another to the end chunk (IEND), the first is the
 * header (IHDR), image data (IDAT) comes before the end, and every critical chunk's CRC-32 matches its bytes
 * (ancillary ones are skipped, as browsers do). Cut short or damaged in any byte of its image data, a PNG fails
 * here, at a tenth of the cost of decoding it (inflating and unfiltering every row were most of a game upload's
 * time); a deflate stream written wrong by its encoder under correct CRCs passes, and Gen. says so in words.
 */
export function pngIsWhole(png: Buffer): boolean {
  let at = 8;
  let chunks = 0;
  let imageData = false;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > png.length) return false;
    if (chunks++ === 0 && type !== 'IHDR') return false;
    // A critical chunk's type starts with an upper-case letter (bit 5 of its first byte clear).
    const critical = (png[at + 4]! & 0x20) === 0;
    if (critical && crc32(png.subarray(at + 4, end - 4)) !== png.readUInt32BE(end - 4)) return false;
    if (type === 'IDAT') imageData = true;
    if (type === 'IEND') return imageData;
    at = end;
  }
  return false;
}

function refusal(format: ImageFormatName, message: string): InvalidImageError {
  return format === 'svg' ? new UndrawableSvgError(message) : new InvalidImageError(message);
}

/**
 * The checks of an image's header alone (no pixel is decoded): its pixel size read from its content, the format
 * its name says, and the decoding limit. The intake (decision 0055) decodes the pixels itself, once, after these.
 */
export async function readHeader(input: Buffer, path: string): Promise<ImageInfo> {
  const format = imageFormatOfName(path);
  if (!format) throw new InvalidImageError(`${path} is not an image.`);
  const label = format.toUpperCase();
  const refuse = (message: string) => refusal(format, message);
  if (input.length === 0) throw refuse(`${path} is empty (0 bytes); an image file must hold an image.`);
  let metadata: Metadata;
  try {
    // The header only, so sharp's own pixel limit is off here and ours applies below, before any decoding.
    metadata = await readImage(input, format, { limitInputPixels: false, pages: 1 }).metadata();
  } catch (error) {
    const why = error instanceof BitmapDecodeError ? ` (${error.message})` : '';
    throw refuse(`${path} is not a readable ${label} file${why}.`);
  }
  const { width, height } = metadata;
  if (!width || !height) throw refuse(`${path} has no pixel size.`);
  // An icon may hold a PNG; an AVIF is an AV1-compressed HEIF.
  const sameFormat =
    (metadata.format === sharpFormatOf[format] || (format === 'ico' && metadata.format === 'png')) &&
    (format !== 'avif' || metadata.compression === 'av1');
  if (!sameFormat) {
    throw refuse(
      `${path} is named .${extensionOf(path)} but holds a ${metadata.format.toUpperCase()} image.`,
    );
  }
  const frameHeight = metadata.pageHeight ?? height;
  if (width * frameHeight > limits.maxImagePixels) {
    throw refuse(
      `${path} is ${width} x ${frameHeight} pixels; images may have at most ${limits.maxImagePixels} pixels.`,
    );
  }
  return { width, height: frameHeight, format };
}
