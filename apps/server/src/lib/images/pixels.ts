import type { Sharp } from 'sharp';
import { sharp } from './sharp';
import type { ImageFormatName } from '@reskin/contract';
import type { RgbaImage } from './bitmap-decoding';
import { readImage } from './image-reading';

export type { RgbaImage } from './bitmap-decoding';

/** Raw pixels of an image in memory, as decoded once (`width` x `height`, `channels` per pixel, top row first). */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * The pipeline's first step for an artist's upload (decision 0055): every pixel of an image's first page, decoded
 * once into RGBA. Truncated or damaged data is refused here ('error' refuses them, mere warnings pass, as in
 * browsers); every later step (marks, composition, previews) works on these pixels, each in its own explicit step
 * (pipeline.ts, decision 0059), so no library pipeline can reorder them.
 */
export async function decodePixels(
  input: Buffer,
  format = formatOfBytes(input),
): Promise<Pixels & { channels: 4 }> {
  const { data, info } = await readImage(input, format, { limitInputPixels: false, failOn: 'error' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
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

/**
 * Decoded pixels opened again for one more step (raw input: no decoding). RGBA unless they say how many channels
 * they have; `pageHeight`: an animation's pages lie one under another.
 */
export function openPixels(
  { data, width, height, ...rest }: RgbaImage & { channels?: Pixels['channels'] },
  pageHeight?: number,
): Sharp {
  const channels = rest.channels ?? 4;
  return sharp(data, { raw: { width, height, channels, ...(pageHeight ? { pageHeight } : {}) } });
}
