import type { Readable } from 'node:stream';
import sharp, { type Metadata } from 'sharp';
import { limits } from '@reskin/contract';
import { extensionOf } from './game-paths';

export interface ImageInfo {
  width: number;
  height: number;
  /** sharp's format name: png, jpeg, gif, webp, svg. */
  format: string;
}

/** Why a file is not the image its name promises. */
export class InvalidImageError extends Error {}

const formatOfExtension: Record<string, string> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', gif: 'gif', webp: 'webp', svg: 'svg' };

/**
 * Reads an image's pixel size from its content (never from its name) and checks that the content is the
 * format its extension says and is not larger than the decoding limit. For animated images the size is one
 * frame's.
 */
export async function inspectImage(content: Readable, path: string): Promise<ImageInfo> {
  const expected = formatOfExtension[extensionOf(path)];
  // Reading metadata decodes only the header, so sharp's own pixel limit is off here and ours applies below.
  const reader = sharp({ limitInputPixels: false, pages: 1 });
  content.on('error', (error) => reader.destroy(error));
  content.pipe(reader);
  let metadata: Metadata;
  try {
    metadata = await reader.metadata();
  } catch {
    throw new InvalidImageError(`${path} is not a readable ${expected?.toUpperCase() ?? 'image'} file.`);
  } finally {
    content.destroy();
  }
  const { width, height, format } = metadata;
  if (!width || !height) throw new InvalidImageError(`${path} has no pixel size.`);
  if (expected && format !== expected) {
    throw new InvalidImageError(`${path} is named .${extensionOf(path)} but holds a ${format.toUpperCase()} image.`);
  }
  const frameHeight = metadata.pageHeight ?? height;
  if (width * frameHeight > limits.maxImagePixels) {
    throw new InvalidImageError(
      `${path} is ${width} x ${frameHeight} pixels; images may have at most ${limits.maxImagePixels} pixels.`,
    );
  }
  return { width, height: frameHeight, format };
}
