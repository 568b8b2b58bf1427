import { limits } from '@reskin/contract';

/**
 * Decoders for the two image formats browsers render that sharp (libvips) cannot read: BMP and ICO. They
 * answer RGBA pixels (or, for an icon that holds a PNG, that PNG), which sharp then reads as raw input, so
 * inspection and the generated copies treat them like every other image.
 *
 * Covered: BMP with the core, info and V4/V5 headers, 1, 2, 4, 8, 16, 24 and 32 bits per pixel, bottom-up and
 * top-down, uncompressed or bit fields; ICO and CUR whose largest entry is a PNG or such a bitmap (with its
 * AND mask). RLE-compressed BMPs are rare in games and are refused as unreadable.
 */

/** Why a BMP or ICO could not be decoded. */
export class BitmapDecodeError extends Error {}

export interface RgbaImage {
  width: number;
  height: number;
  /** width x height x 4 bytes, top row first. */
  data: Buffer;
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function need(buffer: Buffer, end: number): void {
  if (end > buffer.length) throw new BitmapDecodeError('the file is cut short');
}

/** The bit position and width of a channel mask (0x00ff0000 → shift 16, 8 bits). */
function maskShape(mask: number): { shift: number; bits: number } {
  if (mask === 0) return { shift: 0, bits: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  let bits = 0;
  while (((mask >>> (shift + bits)) & 1) === 1) bits++;
  return { shift, bits };
}

function channel(value: number, shape: { shift: number; bits: number }): number {
  if (shape.bits === 0) return 0;
  const max = 2 ** shape.bits - 1;
  return Math.round((((value >>> shape.shift) & max) * 255) / max);
}

/**
 * Decodes a device-independent bitmap starting at `start` (its header). `pixelOffset` is where the pixels
 * start (a BMP file says so; in an icon they follow the palette). An icon's height counts its AND mask too.
 */
function decodeDib(buffer: Buffer, start: number, pixelOffset: number | undefined, icon: boolean): RgbaImage {
  need(buffer, start + 12);
  const headerSize = buffer.readUInt32LE(start);
  const core = headerSize === 12;
  if (!core && headerSize < 40) throw new BitmapDecodeError(`unknown bitmap header (${headerSize} bytes)`);
  need(buffer, start + headerSize);
  const width = core ? buffer.readUInt16LE(start + 4) : buffer.readInt32LE(start + 4);
  let height = core ? buffer.readInt16LE(start + 6) : buffer.readInt32LE(start + 8);
  const bitCount = buffer.readUInt16LE(start + (core ? 10 : 14));
  const compression = core ? 0 : buffer.readUInt32LE(start + 16);
  const colorsUsed = core ? 0 : buffer.readUInt32LE(start + 32);
  const topDown = height < 0;
  height = Math.abs(height);
  if (icon) height = Math.floor(height / 2);
  if (width <= 0 || height <= 0) throw new BitmapDecodeError('no pixel size');
  if (width * height > limits.maxImagePixels) {
    throw new BitmapDecodeError(
      `${width} x ${height} pixels; images may have at most ${limits.maxImagePixels} pixels`,
    );
  }

  let after = start + headerSize;
  let masks: [number, number, number, number] | undefined;
  if (compression === 3 || compression === 6) {
    // Bit fields: in a V2+ header they are part of it, after a plain info header they follow it.
    const withAlpha = compression === 6 || headerSize >= 56;
    if (headerSize < 52) {
      need(buffer, after + (withAlpha ? 16 : 12));
      masks = [
        buffer.readUInt32LE(after),
        buffer.readUInt32LE(after + 4),
        buffer.readUInt32LE(after + 8),
        withAlpha ? buffer.readUInt32LE(after + 12) : 0,
      ];
      after += withAlpha ? 16 : 12;
    } else {
      masks = [
        buffer.readUInt32LE(start + 40),
        buffer.readUInt32LE(start + 44),
        buffer.readUInt32LE(start + 48),
        withAlpha ? buffer.readUInt32LE(start + 52) : 0,
      ];
    }
  } else if (compression !== 0) {
    throw new BitmapDecodeError(
      `compression ${compression} (RLE or embedded JPEG/PNG) is not supported; save it uncompressed or as PNG`,
    );
  }
  if (![1, 2, 4, 8, 16, 24, 32].includes(bitCount))
    throw new BitmapDecodeError(`${bitCount} bits per pixel is not supported`);
  if (masks && bitCount !== 16 && bitCount !== 32)
    throw new BitmapDecodeError('bit fields need 16 or 32 bits per pixel');

  const palette: [number, number, number][] = [];
  if (bitCount <= 8) {
    const count = colorsUsed || 2 ** bitCount;
    const entry = core ? 3 : 4;
    need(buffer, after + count * entry);
    for (let i = 0; i < count; i++) {
      const at = after + i * entry;
      palette.push([buffer[at + 2]!, buffer[at + 1]!, buffer[at]!]);
    }
    after += count * entry;
  }
  masks ??= bitCount === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0x00ff0000, 0x0000ff00, 0x000000ff, 0];
  const shapes = masks.map(maskShape);

  const pixels = pixelOffset ?? after;
  const stride = Math.ceil((width * bitCount) / 32) * 4;
  need(buffer, pixels + stride * height);
  const data = Buffer.alloc(width * height * 4);
  // 32-bit pixels without an alpha mask: the fourth byte is alpha only when some pixel uses it (browsers
  // show an all-zero fourth byte as opaque).
  let alphaInFourthByte = false;
  if (bitCount === 32 && masks[3] === 0) {
    for (let y = 0; y < height && !alphaInFourthByte; y++) {
      for (let x = 0; x < width; x++) {
        if (buffer[pixels + y * stride + x * 4 + 3] !== 0) {
          alphaInFourthByte = true;
          break;
        }
      }
    }
  }
  for (let row = 0; row < height; row++) {
    const y = topDown ? row : height - 1 - row;
    const line = pixels + row * stride;
    for (let x = 0; x < width; x++) {
      const out = (y * width + x) * 4;
      let r: number, g: number, b: number;
      let a = 255;
      if (bitCount <= 8) {
        const bitOffset = x * bitCount;
        const byte = buffer[line + (bitOffset >> 3)]!;
        const index = (byte >> (8 - bitCount - (bitOffset & 7))) & (2 ** bitCount - 1);
        [r, g, b] = palette[index] ?? [0, 0, 0];
      } else if (bitCount === 24) {
        b = buffer[line + x * 3]!;
        g = buffer[line + x * 3 + 1]!;
        r = buffer[line + x * 3 + 2]!;
      } else {
        const value = bitCount === 16 ? buffer.readUInt16LE(line + x * 2) : buffer.readUInt32LE(line + x * 4);
        r = channel(value, shapes[0]!);
        g = channel(value, shapes[1]!);
        b = channel(value, shapes[2]!);
        if (masks[3] !== 0) a = channel(value, shapes[3]!);
        else if (alphaInFourthByte) a = value >>> 24;
      }
      data[out] = r;
      data[out + 1] = g;
      data[out + 2] = b;
      data[out + 3] = a;
    }
  }
  // An icon without alpha of its own has a 1-bit AND mask after its pixels: 1 is transparent.
  if (icon && !(bitCount === 32 && alphaInFourthByte)) {
    const maskStride = Math.ceil(width / 32) * 4;
    const maskStart = pixels + stride * height;
    if (maskStart + maskStride * height <= buffer.length) {
      for (let row = 0; row < height; row++) {
        const y = topDown ? row : height - 1 - row;
        for (let x = 0; x < width; x++) {
          if ((buffer[maskStart + row * maskStride + (x >> 3)]! >> (7 - (x & 7))) & 1)
            data[(y * width + x) * 4 + 3] = 0;
        }
      }
    }
  }
  return { width, height, data };
}

/** Decodes a .bmp file. */
export function decodeBmp(buffer: Buffer): RgbaImage {
  if (buffer.length < 26 || buffer.toString('latin1', 0, 2) !== 'BM')
    throw new BitmapDecodeError('not a BMP file');
  return decodeDib(buffer, 14, buffer.readUInt32LE(10), false);
}

/**
 * Decodes the largest image of a .ico (or .cur) file, the one a browser shows at its own size: a PNG is
 * answered as it is, a bitmap as RGBA pixels.
 */
export function decodeIco(buffer: Buffer): { png: Buffer } | RgbaImage {
  if (buffer.length < 6 || buffer.readUInt16LE(0) !== 0 || ![1, 2].includes(buffer.readUInt16LE(2))) {
    throw new BitmapDecodeError('not an ICO file');
  }
  const count = buffer.readUInt16LE(4);
  if (count === 0) throw new BitmapDecodeError('the icon holds no image');
  need(buffer, 6 + count * 16);
  let best: { pixels: number; offset: number; size: number } | undefined;
  for (let i = 0; i < count; i++) {
    const at = 6 + i * 16;
    const pixels = (buffer[at] || 256) * (buffer[at + 1] || 256);
    const entry = { pixels, size: buffer.readUInt32LE(at + 8), offset: buffer.readUInt32LE(at + 12) };
    if (!best || entry.pixels > best.pixels) best = entry;
  }
  need(buffer, best!.offset + best!.size);
  const image = buffer.subarray(best!.offset, best!.offset + best!.size);
  if (image.subarray(0, 8).equals(pngSignature)) return { png: image };
  return decodeDib(image, 0, undefined, true);
}
