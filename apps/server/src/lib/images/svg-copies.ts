import { sharp } from './sharp';
import { escapeXml, watermarkTile } from './marks';

// The copies of an SVG original (decision 0059 leaves them out of the pixel pipeline): the skeleton is an empty
// document of the original's size, the watermarked copy the original rendered with the mark by sharp's own SVG
// renderer and embedded as a PNG. An SVG has no previews: the browser draws it at any size.

/** The root element's attributes of an SVG document that fix its size (width, height, viewBox, preserveAspectRatio). */
function svgRootAttributes(
  svg: string,
): Partial<Record<'width' | 'height' | 'viewBox' | 'preserveAspectRatio', string>> {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attributes: Record<string, string> = {};
  for (const match of root.matchAll(
    /\s(width|height|viewBox|preserveAspectRatio)\s*=\s*("([^"]*)"|'([^']*)')/g,
  )) {
    attributes[match[1]!] = match[3] ?? match[4] ?? '';
  }
  return attributes;
}

/** The root attributes that give an SVG copy the original's size: its own, else the pixel size it renders at. */
function svgSizeAttributes(root: Record<string, string>, width: number, height: number): string {
  const attributes: Record<string, string> = {
    width: root.width ?? String(width),
    height: root.height ?? String(height),
  };
  if (root.viewBox !== undefined) attributes.viewBox = root.viewBox;
  if (root.preserveAspectRatio !== undefined) attributes.preserveAspectRatio = root.preserveAspectRatio;
  return Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
}

/** Rendering scale of an SVG's watermarked raster: twice its size where that stays small, so it stays sharp. */
const svgRasterScale = (width: number, height: number) => (width * height * 4 <= 4_000_000 ? 2 : 1);

/** The size an SVG renders at (its width and height, else those sharp gives it). */
async function svgSize(original: Buffer): Promise<{ width: number; height: number }> {
  const { width, height } = await sharp(original).metadata();
  return { width, height };
}

/** The skeleton of an SVG: an empty document with the same width, height and viewBox. */
export async function svgSkeleton(original: Buffer): Promise<Buffer> {
  const { width, height } = await svgSize(original);
  const root = svgRootAttributes(original.toString('utf8'));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg"${svgSizeAttributes(root, width, height)}></svg>\n`,
  );
}

/**
 * The watermarked copy of an SVG: rendered to pixels with the mark (sharp renders the document and composites the
 * tile in one pipeline: rendering comes first whatever it does, and nothing is resized) and embedded as a PNG in
 * an SVG of the original's width, height and viewBox: the mark is part of the pixels, so editing the document
 * cannot remove it.
 */
export async function svgWatermark(original: Buffer, productName: string): Promise<Buffer> {
  const { width, height } = await svgSize(original);
  const raster = sharp(original, { density: 72 * svgRasterScale(width, height) });
  const rendered = await raster.metadata();
  const tile = watermarkTile(rendered.width, rendered.height, productName);
  const png = await raster
    .composite([{ input: Buffer.from(tile.svg), tile: true, blend: 'over' }])
    .png()
    .toBuffer();
  const root = svgRootAttributes(original.toString('utf8'));
  const box = root.viewBox
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const [x, y, w, h] = box && box.length === 4 && box.every(Number.isFinite) ? box : [0, 0, width, height];
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg"${svgSizeAttributes(root, width, height)}>` +
      `<image x="${x}" y="${y}" width="${w}" height="${h}" preserveAspectRatio="none" href="data:image/png;base64,${png.toString('base64')}"/>` +
      `</svg>\n`,
  );
}
