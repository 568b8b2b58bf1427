import type { Sharp } from 'sharp';
import { batchMessages, limits, type FitMode, type ImageFormatName } from '@reskin/contract';
import { BitmapDecodeError } from './bitmap-decoding';
import { readImage } from './image-reading';

// Fitting an artist's image to the original's pixel size and format (decision 0030): the batch replace
// stores what this makes, and the fit preview answers the same bytes, so the preview is the stored result.

/** The formats a fitted or converted image can be written in: the ones sharp writes. */
export const fitOutputFormats = ['png', 'jpeg', 'webp', 'gif', 'avif'] as const;
export type FitOutputFormat = (typeof fitOutputFormats)[number];

export function canWriteFormat(format: ImageFormatName): format is FitOutputFormat {
  return (fitOutputFormats as readonly string[]).includes(format);
}

/** Why an image cannot be fitted or converted (the batch's row error; a 422 elsewhere). */
export class ImageFitError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface FitOptions {
  /** The original's size. */
  width: number;
  height: number;
  /** How an image of another size is made to it (ignored when the sizes match). */
  mode: FitMode;
  /** The format to write: the original's. */
  format: ImageFormatName;
  /** The format of the input (a contract name; BMP and ICO are decoded first). */
  inputFormat: ImageFormatName;
}

/** Formats without an alpha channel: contain pads them with black (letterbox) instead of transparency. */
const opaque = new Set<ImageFormatName>(['jpeg']);

const sharpFit = { cover: 'cover', contain: 'contain', stretch: 'fill' } as const;

/**
 * The input fitted to `width` x `height` with `mode` (cover: fill and crop, centred; contain: scaled to fit with
 * transparent padding, black for JPEG; stretch: scaled to exactly that size) and written in `format`. Downscaling
 * uses lanczos3. An input of the same size is only converted. An animated image (more than one frame) is refused
 * when it would have to be resized or converted: its frames and timing stay as the artist made them only when it
 * is stored as it is (decision 0030).
 */
export async function fitImage(input: Buffer, options: FitOptions): Promise<Buffer> {
  const { width, height, mode, format, inputFormat } = options;
  if (!canWriteFormat(format)) {
    throw new ImageFitError(
      `Images cannot be written as ${format.toUpperCase()}: replace it with a ${format.toUpperCase()} of the original's size.`,
      'cannot_convert',
    );
  }
  let image: Sharp;
  try {
    image = readImage(input, inputFormat, { limitInputPixels: limits.maxImagePixels, pages: -1 });
    const { pages = 1, width: inWidth, height: inHeight, pageHeight } = await image.metadata();
    const sameSize = inWidth === width && (pageHeight ?? inHeight) === height;
    if (pages > 1 && !(sameSize && inputFormat === format))
      throw new ImageFitError(batchMessages.animatedGif, 'animated');
    if (pages > 1) return input;
    if (!sameSize) {
      image = image.resize(width, height, {
        fit: sharpFit[mode],
        position: 'centre',
        kernel: 'lanczos3',
        background: opaque.has(format) ? { r: 0, g: 0, b: 0, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 },
      });
    }
    if (opaque.has(format)) image = image.flatten({ background: { r: 0, g: 0, b: 0 } });
    return await written(image, format).toBuffer();
  } catch (error) {
    if (error instanceof ImageFitError) throw error;
    const why = error instanceof BitmapDecodeError ? error.message : (error as Error).message;
    throw new ImageFitError(`The image could not be fitted: ${why.replace(/\.?$/, '.')}`, 'invalid_image');
  }
}

/** The encoder settings of each output format: PNG and GIF as they are, the lossy ones at a high quality. */
function written(image: Sharp, format: FitOutputFormat): Sharp {
  switch (format) {
    case 'png':
      return image.png();
    case 'jpeg':
      return image.jpeg({ quality: 90, mozjpeg: false });
    case 'webp':
      return image.webp({ quality: 90 });
    case 'gif':
      return image.gif();
    case 'avif':
      return image.avif({ quality: 60 });
  }
}
