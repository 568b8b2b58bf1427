import sharp, { type Sharp } from 'sharp';
import type { ImageFormatName } from '@reskin/contract';
import type { RgbaImage } from './bitmap-decoding';
import { readImage } from './image-reading';

export type { RgbaImage } from './bitmap-decoding';

/**
 * The pipeline's first step (decision 0055): every pixel of an image's first page, decoded once into RGBA.
 * Truncated or damaged data is refused here ('error' refuses them, mere warnings pass, as in browsers); every
 * later step (marks, composition, previews) works on these pixels, each in its own explicit step, so no library
 * pipeline can reorder them.
 */
export async function decodePixels(input: Buffer, format = formatOfBytes(input)): Promise<RgbaImage> {
  const { data, info } = await readImage(input, format, { limitInputPixels: false, failOn: 'error' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * What readImage needs to know of stored bytes whose name no longer says their format (a PNG frame stored for a
 * JPEG sheet): BMP and icons by their signature, which sharp cannot read; any other format sharp finds itself.
 */
function formatOfBytes(input: Buffer): ImageFormatName {
  if (input.length >= 2 && input[0] === 0x42 && input[1] === 0x4d) return 'bmp';
  if (input.length >= 4 && input.readUInt16LE(0) === 0 && [1, 2].includes(input.readUInt16LE(2)))
    return 'ico';
  return 'png';
}

/** Decoded pixels opened again for one more step (raw input: no decoding). */
export function openPixels({ data, width, height }: RgbaImage): Sharp {
  return sharp(data, { raw: { width, height, channels: 4 } });
}
