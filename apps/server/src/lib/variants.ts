import { extname } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { extensionOf } from './game-paths';

/** The two generated copies of every game image (DESIGN.md "Games, files, variants"). */
export type Variant = 'skeleton' | 'watermark';

/**
 * Where a variant of a stored original lives. It derives from the original's key, which is new for every
 * upload, so a replaced image's variants get new keys too and nothing stale is ever served.
 */
export function variantKey(storageKey: string, variant: Variant): string {
  return `${storageKey}.${variant}${extname(storageKey)}`;
}

/** Light grey for JPEG skeletons: JPEG has no transparency. */
const jpegSkeletonGrey = { r: 211, g: 211, b: 211 };

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The root element's attributes of an SVG document (width, height, viewBox). */
function svgRootAttributes(svg: string): Record<string, string> {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attributes: Record<string, string> = {};
  for (const match of root.matchAll(/\s(width|height|viewBox)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    attributes[match[1]!] = match[3] ?? match[4] ?? '';
  }
  return attributes;
}

/**
 * A tile of the watermark: the product name, diagonal, white with a dark outline and half transparent, so it
 * shows on light and dark art alike; scaled to the image so it stays readable on big and small images.
 */
function watermarkTile(width: number, height: number, productName: string): { svg: string; width: number; height: number } {
  const tileWidth = Math.max(1, Math.min(width, Math.max(96, Math.round(width / 3))));
  const tileHeight = Math.max(1, Math.min(height, Math.round(tileWidth / 2)));
  const fontSize = Math.max(6, Math.round(tileWidth / 9));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${tileWidth}" height="${tileHeight}">` +
    `<line x1="0" y1="${tileHeight}" x2="${tileWidth}" y2="0" stroke="black" stroke-opacity="0.25" stroke-width="${Math.max(1, fontSize / 6)}"/>` +
    `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="bold" ` +
    `font-size="${fontSize}" fill="white" fill-opacity="0.5" stroke="black" stroke-opacity="0.35" stroke-width="${Math.max(0.5, fontSize / 24)}" ` +
    `transform="rotate(-25 ${tileWidth / 2} ${tileHeight / 2})">${escapeXml(productName)}</text></svg>`;
  return { svg, width: tileWidth, height: tileHeight };
}

function encode(image: Sharp, format: string): Sharp {
  switch (format) {
    case 'png':
      return image.png();
    case 'jpeg':
      return image.jpeg({ quality: 90 });
    case 'webp':
      return image.webp({ quality: 90 });
    case 'gif':
      return image.gif();
    default:
      throw new Error(`No encoder for ${format}`);
  }
}

/**
 * The skeleton of an image: the same width, height and format, with nothing drawn: fully transparent, or
 * flat light grey for JPEG. SVG becomes an empty document with the same width, height and viewBox.
 */
export async function makeSkeleton(original: Buffer, path: string): Promise<Buffer> {
  if (extensionOf(path) === 'svg') {
    const { width, height, viewBox } = svgRootAttributes(original.toString('utf8'));
    const attributes = [
      width !== undefined ? ` width="${escapeXml(width)}"` : '',
      height !== undefined ? ` height="${escapeXml(height)}"` : '',
      viewBox !== undefined ? ` viewBox="${escapeXml(viewBox)}"` : '',
    ].join('');
    return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"${attributes}></svg>\n`);
  }
  const metadata = await sharp(original, { pages: 1 }).metadata();
  const width = metadata.width;
  const height = metadata.pageHeight ?? metadata.height;
  if (metadata.format === 'jpeg') {
    return sharp({ create: { width, height, channels: 3, background: jpegSkeletonGrey } }).jpeg({ quality: 90 }).toBuffer();
  }
  const blank = sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } });
  // Lossless, so the transparent pixels stay exactly transparent.
  if (metadata.format === 'webp') return blank.webp({ lossless: true }).toBuffer();
  return encode(blank, metadata.format).toBuffer();
}

/**
 * The watermarked copy of an image: the same width, height and format (every frame of an animation
 * keeps its timing), with the product name tiled over it.
 */
export async function makeWatermark(original: Buffer, path: string, productName: string): Promise<Buffer> {
  if (extensionOf(path) === 'svg') {
    const text = original.toString('utf8');
    const { width, height, viewBox } = svgRootAttributes(text);
    const box = viewBox?.trim().split(/[\s,]+/).map(Number);
    const [x, y, w, h] =
      box && box.length === 4 && box.every(Number.isFinite)
        ? box
        : [0, 0, parseFloat(width ?? '') || 300, parseFloat(height ?? '') || 150];
    const tile = watermarkTile(w!, h!, productName);
    const overlay =
      `<defs><pattern id="reskin-watermark" x="${x}" y="${y}" width="${tile.width}" height="${tile.height}" patternUnits="userSpaceOnUse">` +
      `${tile.svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '')}</pattern></defs>` +
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#reskin-watermark)"/>`;
    const close = text.lastIndexOf('</svg>');
    if (close < 0) throw new Error(`${path} has no closing </svg>`);
    return Buffer.from(text.slice(0, close) + overlay + text.slice(close));
  }
  const metadata = await sharp(original, { pages: 1 }).metadata();
  const frameHeight = metadata.pageHeight ?? metadata.height;
  const tile = watermarkTile(metadata.width, frameHeight, productName);
  const animated = (metadata.pages ?? 1) > 1;
  const image = sharp(original, animated ? { pages: -1, animated: true } : {}).composite([
    { input: Buffer.from(tile.svg), tile: true, blend: 'over' },
  ]);
  return encode(image, metadata.format).toBuffer();
}
