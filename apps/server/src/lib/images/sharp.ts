import type sharpModule from 'sharp';
import type { Sharp, SharpInput, SharpOptions } from 'sharp';
import { lazyPackage } from '../lazy-package';

const loadSharp = lazyPackage<typeof sharpModule>('sharp');

/** sharp(input, options), with sharp and libvips loaded for the first image, not at start-up (lib/lazy-package.ts). */
export function sharp(input?: SharpInput, options?: SharpOptions): Sharp {
  return loadSharp()(input, options);
}
