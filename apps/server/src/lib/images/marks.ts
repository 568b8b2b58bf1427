import { LRUCache } from 'lru-cache';
import type { OverlayOptions } from 'sharp';
import { sharp } from './sharp';

// The watermark's marks (DESIGN.md "Games, files, variants"; decisions 0028 and 0047): the tile over the whole
// image and each sprite frame's own mark, rendered from SVG to pixels once and kept. pipeline.ts drawMarks
// composites them onto decoded pixels at full size.

/** Text escaped for an SVG document. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The size of a watermark tile for an image of `width` x `height`, and its text's size. */
function tileGeometry(width: number, height: number): { width: number; height: number; fontSize: number } {
  const tileWidth = Math.max(1, Math.min(width, Math.max(96, Math.round(width / 3))));
  const tileHeight = Math.max(1, Math.min(height, Math.round(tileWidth / 2)));
  return { width: tileWidth, height: tileHeight, fontSize: Math.max(6, Math.round(tileWidth / 9)) };
}

/** What a watermark tile draws (the inside of its SVG): a faint diagonal and the product name across it. */
function tileMarkup(
  { width: tileWidth, height: tileHeight, fontSize }: ReturnType<typeof tileGeometry>,
  productName: string,
): string {
  return (
    `<line x1="0" y1="${tileHeight}" x2="${tileWidth}" y2="0" stroke="black" stroke-opacity="0.25" stroke-width="${Math.max(1, fontSize / 6)}"/>` +
    `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="bold" ` +
    `font-size="${fontSize}" fill="white" fill-opacity="0.5" stroke="black" stroke-opacity="0.35" stroke-width="${Math.max(0.5, fontSize / 24)}" ` +
    `transform="rotate(-25 ${tileWidth / 2} ${tileHeight / 2})">${escapeXml(productName)}</text>`
  );
}

/**
 * A tile of the watermark: the product name, diagonal, white with a dark outline and half transparent, so it
 * shows on light and dark art alike; scaled to the image so it stays readable on big and small images.
 */
export function watermarkTile(
  width: number,
  height: number,
  productName: string,
): { svg: string; width: number; height: number } {
  const tile = tileGeometry(width, height);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${tile.width}" height="${tile.height}">${tileMarkup(tile, productName)}</svg>`;
  return { svg, width: tile.width, height: tile.height };
}

/** A frame's rect on a sprite sheet: pixels from the sheet's top left. */
export interface FrameRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Frames at least this big carry the ordinary tiled mark (clipped to the frame); smaller ones a band with the name fitted to it. */
const tiledFrame = { w: 96, h: 48 };

/**
 * The mark of a frame too small for the tiled mark (a 12x12 sprite too): a band from its bottom left to its top
 * right, dark under light so it shows on any art, as thick as a fifth of the frame's shorter side, and the product
 * name along it where the frame is big enough for text of 6 px.
 */
function smallFrameMark(w: number, h: number, productName: string): string {
  const band = Math.max(2, Math.min(w, h) / 5);
  const diagonal = Math.hypot(w, h);
  const fontSize = Math.min(h / 2.5, (0.9 * diagonal) / (0.62 * Math.max(1, productName.length)));
  const angle = (-Math.atan2(h, w) * 180) / Math.PI;
  const text =
    fontSize < 6
      ? ''
      : `<text x="${w / 2}" y="${h / 2}" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif" font-weight="bold" ` +
        `font-size="${fontSize.toFixed(1)}" fill="white" fill-opacity="0.6" stroke="black" stroke-opacity="0.4" stroke-width="${Math.max(0.5, fontSize / 24).toFixed(2)}" ` +
        `transform="rotate(${angle.toFixed(1)} ${w / 2} ${h / 2})">${escapeXml(productName)}</text>`;
  return (
    `<line x1="0" y1="${h}" x2="${w}" y2="0" stroke="black" stroke-opacity="0.35" stroke-width="${band.toFixed(1)}"/>` +
    `<line x1="0" y1="${h}" x2="${w}" y2="0" stroke="white" stroke-opacity="0.5" stroke-width="${(band / 2).toFixed(1)}"/>` +
    text
  );
}

/**
 * What the mark of one frame of `w` x `h` draws, from the frame's top left (clipped to it where it is placed): big
 * frames get the image watermark's tile repeated from their top left (a pattern named `id`), small ones a band
 * with the name fitted to it.
 */
function frameMarkMarkup(w: number, h: number, productName: string, id: string): string {
  if (w < tiledFrame.w || h < tiledFrame.h) return smallFrameMark(w, h, productName);
  const tile = tileGeometry(w, h);
  return (
    `<defs><pattern id="${id}" width="${tile.width}" height="${tile.height}" patternUnits="userSpaceOnUse">${tileMarkup(tile, productName)}</pattern></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#${id})"/>`
  );
}

/**
 * Frame marks rendered to pixels (raw RGBA), by size and product name: a sheet's frames often share sizes (a grid's
 * all do), and rendering the text is most of a mark's cost. At most 32 MB are kept, the least recently used first.
 */
const renderedMarks = new LRUCache<string, Buffer>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (pixels) => Math.max(1, pixels.length),
});

/** Marks are rendered packed in rows on SVG sheets of this size, one sharp call a sheet; a bigger mark alone. */
const markSheet = { width: 2048, height: 512 };

/**
 * Renders the marks of frames of the given sizes. Packing them on a few SVG sheets saves a sharp call per size,
 * which is a third of a small mark's cost (measured: 500 sizes 1.45 s one by one, about half that packed).
 */
async function renderMarks(
  sizes: readonly { w: number; h: number }[],
  productName: string,
): Promise<Map<string, Buffer>> {
  const rendered = new Map<string, Buffer>();
  const render = async (
    placed: { w: number; h: number; x: number; y: number }[],
    width: number,
    height: number,
  ) => {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      placed
        .map(
          ({ w, h, x, y }, i) =>
            `<svg x="${x}" y="${y}" width="${w}" height="${h}" overflow="hidden">${frameMarkMarkup(w, h, productName, `t${i}`)}</svg>`,
        )
        .join('') +
      `</svg>`;
    const pixels = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
    for (const { w, h, x, y } of placed) {
      const mark = Buffer.alloc(w * h * 4);
      for (let row = 0; row < h; row++)
        pixels.copy(mark, row * w * 4, ((y + row) * width + x) * 4, ((y + row) * width + x + w) * 4);
      rendered.set(`${w}\n${h}`, mark);
    }
  };
  let batch: { w: number; h: number; x: number; y: number }[] = [];
  let [x, y, rowHeight] = [0, 0, 0];
  // Tallest first: rows of marks of about one height waste little of a sheet.
  for (const { w, h } of [...sizes].sort((a, b) => b.h - a.h)) {
    if (w > markSheet.width || h > markSheet.height) {
      await render([{ w, h, x: 0, y: 0 }], w, h);
      continue;
    }
    if (x + w > markSheet.width) [x, y, rowHeight] = [0, y + rowHeight, 0];
    if (y + h > markSheet.height) {
      await render(batch, markSheet.width, y);
      [batch, x, y, rowHeight] = [[], 0, 0, 0];
    }
    batch.push({ w, h, x, y });
    x += w;
    rowHeight = Math.max(rowHeight, h);
  }
  if (batch.length > 0) await render(batch, markSheet.width, y + rowHeight);
  return rendered;
}

/**
 * The marks of a sprite sheet's frames (decision 0028) as sharp overlays: one per frame, at its rect, so
 * a sprite cut from the sheet shows the mark however small it is (a 12x12 one too). Rects are clipped to the image
 * (a descriptor or grid may name frames partly or wholly outside it). Frames sharing a rect (aliases) are marked
 * once; each size is rendered once.
 */
async function frameOverlays(
  frames: readonly FrameRect[],
  width: number,
  height: number,
  productName: string,
): Promise<OverlayOptions[]> {
  const rects = new Map<string, FrameRect>();
  for (const frame of frames) {
    const rect = clippedRect(frame, width, height);
    if (rect) rects.set(`${rect.x},${rect.y},${rect.w},${rect.h}`, rect);
  }
  const marks = new Map<string, Buffer>();
  const missing = new Map<string, { w: number; h: number }>();
  for (const { w, h } of rects.values()) {
    const size = `${w}\n${h}`;
    const kept = renderedMarks.get(`${size}\n${productName}`);
    if (kept) marks.set(size, kept);
    else missing.set(size, { w, h });
  }
  for (const [size, pixels] of await renderMarks([...missing.values()], productName)) {
    marks.set(size, pixels);
    renderedMarks.set(`${size}\n${productName}`, pixels);
  }
  return [...rects.values()].map(({ x, y, w, h }) => ({
    input: marks.get(`${w}\n${h}`)!,
    raw: { width: w, height: h, channels: 4 },
    left: x,
    top: y,
    blend: 'over',
  }));
}

/** A frame's rect cut to an image of `width` x `height` in whole pixels; undefined when nothing of it is inside. */
function clippedRect({ x, y, w, h }: FrameRect, width: number, height: number): FrameRect | undefined {
  if (![x, y, w, h].every(Number.isFinite)) return undefined;
  const [left, top] = [Math.max(0, Math.round(x)), Math.max(0, Math.round(y))];
  const [right, bottom] = [Math.min(width, Math.round(x + w)), Math.min(height, Math.round(y + h))];
  return right > left && bottom > top ? { x: left, y: top, w: right - left, h: bottom - top } : undefined;
}
/**
 * Watermark tiles rendered to pixels, by their SVG: images of the same width share a tile, and rendering its
 * text is a fifth of a small image's watermark (no work done twice). The pixels are those sharp renders
 * from the SVG when compositing it directly. At most 32 MB are kept, the least recently used going first.
 */
const renderedTiles = new LRUCache<string, Buffer>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (pixels) => pixels.length,
  fetchMethod: (svg) => sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer(),
});

/** Forgets the rendered tiles and frame marks (the generation bench measures a server's first generation). */
export function forgetRenderedTiles(): void {
  renderedTiles.clear();
  renderedMarks.clear();
}

/** What the marks of an image are drawn for: the product name, and a still sprite sheet's frames. */
export interface Marks {
  productName: string;
  /** The rects of the sprite frames on a still image that is a page of a sprite sheet; none for other images. */
  frames?: readonly FrameRect[];
}

/**
 * The overlays that mark an image whose frames (an animation's pages, or the one picture) are `width` x `height`:
 * the tiled mark over the whole image always, and on a still sprite sheet each frame's own mark on top of it
 * (frames add marks, never replace the tile: whatever grid or descriptor an image has, all of it stays marked).
 */
export async function markOverlays(
  width: number,
  height: number,
  { productName, frames = [] }: Marks,
  still: boolean,
): Promise<OverlayOptions[]> {
  const tile = watermarkTile(width, height, productName);
  const overlays: OverlayOptions[] = [
    {
      input: await renderedTiles.forceFetch(tile.svg),
      raw: { width: tile.width, height: tile.height, channels: 4 },
      tile: true,
      blend: 'over',
    },
  ];
  if (frames.length > 0 && still) overlays.push(...(await frameOverlays(frames, width, height, productName)));
  return overlays;
}
