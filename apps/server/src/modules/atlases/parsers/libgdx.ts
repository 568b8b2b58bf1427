import type { AtlasFrame, AtlasRotation } from '@reskin/contract';
import {
  AtlasError,
  atLeastZero,
  countFrames,
  countPages,
  frame,
  integer,
  positive,
  uniqueNames,
  type ParsedAtlas,
  type ParsedPage,
} from './shared';

/** libGDX / Spine `.atlas` text: the old format (xy, size, orig, offset) and the 4.x one (bounds, offsets). */

const imageLine = /^[^:\s][^:]*\.(png|jpe?g|webp|gif|bmp|ktx2?|basis)$/i;

export function looksLikeLibgdxAtlas(body: string): boolean {
  const lines = body.split(/\r\n|\r|\n/, 8).map((line) => line.trim());
  return (
    imageLine.test(lines[0] ?? '') &&
    lines.slice(1).some((line) => /^(size|format|filter|repeat|pma|scale)\s*:/.test(line))
  );
}

/** One `key: a, b, c` line, or undefined for a line without a colon (a page or region name). */
function entry(line: string): { key: string; values: string[] } | undefined {
  const colon = line.indexOf(':');
  if (colon < 0) return undefined;
  return {
    key: line.slice(0, colon).trim(),
    values: line
      .slice(colon + 1)
      .split(',')
      .map((value) => value.trim()),
  };
}

export function parseLibgdxAtlas(body: string): ParsedAtlas {
  const lines = body.split(/\r\n|\r|\n/);
  const pages: ParsedPage[] = [];
  const frames: AtlasFrame[] = [];
  let i = 0;
  const next = () => lines[i++];
  while (i < lines.length) {
    // Blank lines separate pages; the first line of a block is its page image.
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const page: ParsedPage = { image: next()!.trim() };
    if (entry(page.image))
      throw new AtlasError(`Line ${i}: a page must start with its image name, not "${page.image}".`);
    pages.push(page);
    countPages(pages.length);
    while (i < lines.length && lines[i]!.trim() !== '' && entry(lines[i]!)) {
      const { key, values } = entry(next()!)!;
      if (key === 'size') {
        page.width = positive(values[0], `Page "${page.image}" width`);
        page.height = positive(values[1], `Page "${page.image}" height`);
      }
    }
    while (i < lines.length && lines[i]!.trim() !== '') {
      const name = next()!.trim();
      const region = {
        x: NaN,
        y: NaN,
        w: NaN,
        h: NaN,
        origW: 0,
        origH: 0,
        offX: 0,
        offY: 0,
        degrees: 0,
        index: -1,
      };
      const line = i;
      while (i < lines.length && lines[i]!.trim() !== '' && entry(lines[i]!)) {
        const { key, values } = entry(next()!)!;
        const what = `Region "${name}" ${key}`;
        if (key === 'bounds')
          [region.x, region.y, region.w, region.h] = values.map((v, n) => integer(v, `${what} ${n + 1}`));
        else if (key === 'xy') [region.x, region.y] = values.map((v) => integer(v, what));
        else if (key === 'size') [region.w, region.h] = values.map((v) => integer(v, what));
        else if (key === 'orig') [region.origW, region.origH] = values.map((v) => integer(v, what));
        else if (key === 'offset') [region.offX, region.offY] = values.map((v) => integer(v, what));
        else if (key === 'offsets')
          [region.offX, region.offY, region.origW, region.origH] = values.map((v) => integer(v, what));
        else if (key === 'index') region.index = integer(values[0], what);
        else if (key === 'rotate')
          region.degrees = values[0] === 'true' ? 90 : values[0] === 'false' ? 0 : integer(values[0], what);
      }
      if ([region.x, region.y, region.w, region.h].some(Number.isNaN))
        throw new AtlasError(`Region "${name}" (line ${line}) has no bounds.`);
      if (![0, 90, 180, 270].includes(region.degrees))
        throw new AtlasError(`Region "${name}" is rotated ${region.degrees}°: only quarter turns are read.`);
      countFrames(frames.length + 1);
      const w = positive(region.w, `Region "${name}" width`);
      const h = positive(region.h, `Region "${name}" height`);
      const sourceW = region.origW || w;
      const sourceH = region.origH || h;
      frames.push(
        frame({
          name: region.index >= 0 ? `${name}#${region.index}` : name,
          page: pages.length - 1,
          x: atLeastZero(region.x, `Region "${name}" x`),
          y: atLeastZero(region.y, `Region "${name}" y`),
          w,
          h,
          // libGDX turns counter-clockwise.
          rotation: ((360 - region.degrees) % 360) as AtlasRotation,
          sourceW: positive(sourceW, `Region "${name}" original width`),
          sourceH: positive(sourceH, `Region "${name}" original height`),
          // libGDX counts the offset from the bottom left.
          offsetX: region.offX,
          offsetY: sourceH - h - region.offY,
        }),
      );
    }
  }
  countPages(pages.length);
  return { format: 'libgdx', pages, frames: uniqueNames(frames), problems: [] };
}
