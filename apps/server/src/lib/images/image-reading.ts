import type { Sharp, SharpOptions } from 'sharp';
import { sharp } from './sharp';
import type { ImageFormatName } from '@reskin/contract';
import { decodeBmp, decodeIco } from './bitmap-decoding';

/**
 * Opens an image of a contract format with sharp. BMP and ICO, which libvips cannot read, are decoded here
 * first (bitmap-decoding.ts) and handed over as raw pixels (or the PNG inside the icon); their decoding
 * errors are thrown as BitmapDecodeError.
 */
export function readImage(input: Buffer, format: ImageFormatName, options: SharpOptions = {}): Sharp {
  if (format === 'bmp' || format === 'ico') {
    const decoded = format === 'bmp' ? decodeBmp(input) : decodeIco(input);
    if ('png' in decoded) return sharp(decoded.png, options);
    const { width, height, data } = decoded;
    return sharp(data, { ...options, raw: { width, height, channels: 4 } });
  }
  return sharp(input, options);
}
