import { sharp } from './sharp';
import { imageFormatOfName, imageFormats, limits } from '@reskin/contract';
import { decodeWithin, resizeWithin } from './pipeline';
import type { Pixels } from './pixels';

/**
 * Small WebP copies of game images (decision 0038): a `preview` for cards (the longer side at most
 * limits.imagePreviews.previewPixels) and a `thumb` for the admin's tables (thumbnailPixels), never enlarged.
 */
export type PreviewSize = 'preview' | 'thumb';

export const previewSizes: Record<PreviewSize, { pixels: number; bytes: number }> = {
  preview: { pixels: limits.imagePreviews.previewPixels, bytes: limits.imagePreviews.previewBytes },
  thumb: { pixels: limits.imagePreviews.thumbnailPixels, bytes: limits.imagePreviews.thumbnailBytes },
};

/**
 * Where a preview of a stored object lives: beside it, derived from its key (an original's, a watermarked or
 * skeleton copy's, a version file's). Keys are new for every upload (copy-keys.ts variantKey), so a derived key
 * never names a stale preview.
 */
export function previewKey(sourceKey: string, size: PreviewSize): string {
  return `${sourceKey}.${size}.webp`;
}

/** The previews a stored object may have (deleting a missing one is no error). */
export function previewKeysOf(sourceKey: string): string[] {
  return [previewKey(sourceKey, 'preview'), previewKey(sourceKey, 'thumb')];
}

/**
 * `keys` with the previews each may have beside it (decision 0038: whoever deletes an object deletes its previews,
 * made by generation or on first request).
 */
export function withPreviews(keys: readonly string[]): string[] {
  return keys.flatMap((key) => (previewSourceOf(key) ? [key] : [key, ...previewKeysOf(key)]));
}

/** The object a preview key derives from and its size; undefined for a key that names no preview. */
export function previewSourceOf(key: string): { sourceKey: string; size: PreviewSize } | undefined {
  const match = /^(.+)\.(preview|thumb)\.webp$/.exec(key);
  return match ? { sourceKey: match[1]!, size: match[2] as PreviewSize } : undefined;
}

/**
 * Whether an image of this name gets previews: the raster formats. An SVG has none (the browser draws the
 * document itself at any size, and its copies are SVG documents).
 */
export function hasPreviews(path: string): boolean {
  const format = imageFormatOfName(path);
  return format !== undefined && imageFormats[format].copiesAs !== 'svg';
}

/** WebP qualities tried in turn until the encoding fits the size's byte budget (most art fits at the first). */
const qualities = [80, 65, 50, 35];

/**
 * The encode step of a preview (pipeline.ts): pixels already resized to the size, as WebP, stepping the quality
 * down while the bytes are over the size's budget, and where even the lowest is over (busy pictures: noise, dense
 * detail), the pixels shrunk by the missing factor and tried again, so the budget holds for any picture.
 */
export async function encodePreview(resized: Pixels, size: PreviewSize): Promise<Buffer> {
  const budget = previewSizes[size].bytes;
  let pixels = opaqueAsRgb(resized);
  for (;;) {
    const { data, width, height, channels } = pixels;
    let encoded: Buffer | undefined;
    for (const quality of qualities) {
      encoded = await sharp(data, { raw: { width, height, channels } })
        .webp({ quality, alphaQuality: quality, effort: 2 })
        .toBuffer();
      if (encoded.length <= budget) return encoded;
    }
    // Bytes go with the pixel count: a tenth below the budget's share of them.
    const scale = Math.sqrt(budget / encoded!.length) * 0.9;
    if (width * scale < 8 || height * scale < 8) return encoded!;
    const { data: smaller, info } = await sharp(data, { raw: { width, height, channels } })
      .resize(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    pixels = { data: smaller, width: info.width, height: info.height, channels: info.channels };
  }
}

/**
 * Pixels without their alpha channel when every pixel is opaque (most art, and every watermarked copy of an opaque
 * image, which compositing gave one): WebP then encodes no alpha plane, a third of a preview's encoding time.
 */
function opaqueAsRgb(pixels: Pixels): Pixels {
  const { data, channels } = pixels;
  if (channels !== 4) return pixels;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return pixels;
  const rgb = Buffer.allocUnsafe((data.length / 4) * 3);
  for (let i = 0, j = 0; i < data.length; i += 4, j += 3) {
    rgb[j] = data[i]!;
    rgb[j + 1] = data[i + 1]!;
    rgb[j + 2] = data[i + 2]!;
  }
  return { ...pixels, data: rgb, channels: 3 };
}

/**
 * Both sizes from pixels (generation, which decodes each image once): the preview resized from them, and the
 * thumbnail resized from the preview (a fifth of its side: no visible loss, a 25th of the work).
 */
export async function encodePreviews(pixels: Pixels): Promise<Record<PreviewSize, Buffer>> {
  const preview = await resizeWithin(pixels, previewSizes.preview.pixels);
  const [encoded, thumb] = await Promise.all([
    encodePreview(preview, 'preview'),
    resizeWithin(preview, previewSizes.thumb.pixels).then((small) => encodePreview(small, 'thumb')),
  ]);
  return { preview: encoded, thumb };
}

/**
 * A preview of a stored image (the route's lazy make): its first page decoded at the size (pipeline.ts
 * decodeWithin), then encoded. `name` gives the format (the stored key's extension: BMP and ICO are decoded by
 * the app).
 */
export async function makePreview(source: Buffer, name: string, size: PreviewSize): Promise<Buffer> {
  const format = imageFormatOfName(name);
  if (!format || imageFormats[format].copiesAs === 'svg') throw new Error(`${name} has no previews`);
  return encodePreview(await decodeWithin(source, format, previewSizes[size].pixels), size);
}
