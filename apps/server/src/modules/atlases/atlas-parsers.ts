import { SaxesParser } from 'saxes';
import { limits, type AtlasFormat, type AtlasFrame, type AtlasRotation } from '@reskin/contract';

/**
 * The sprite sheet descriptor parsers (decision 0028). Each reads one format into the contract's atlas
 * model (packages/contract/src/atlases.ts): pages by the image name the descriptor writes (resolved against the
 * game later, atlas-resolution.ts) and frames in top-left pixel coordinates. A file is recognised by its content,
 * not its name: `parseAtlasDescriptor` answers null for a file that is no descriptor, and throws AtlasError, with
 * why, for one that is a descriptor but cannot be read.
 *
 * Rotation: TexturePacker (JSON), Starling and Cocos2d store a rotated sprite turned 90° clockwise; libGDX and
 * Spine turn it 90° counter-clockwise (their `rotate: true`, or `rotate: <degrees>` counter-clockwise). The model
 * keeps the clockwise turn (`rotation`).
 */

/** A descriptor that cannot be used, with why in words for the game files screen. */
export class AtlasError extends Error {}

export interface ParsedPage {
  /** The image as the descriptor names it (relative to the descriptor). */
  image: string;
  /** The page size the descriptor declares, if it does. */
  width?: number | undefined;
  height?: number | undefined;
}

export interface ParsedAtlas {
  format: AtlasFormat;
  pages: ParsedPage[];
  frames: AtlasFrame[];
  /** What was left out of a descriptor that is used all the same (a frame's pivot that is no number), with why. */
  problems: string[];
}

/**
 * Reads a file's text as a sprite sheet descriptor of any supported format. Null: it is no descriptor (a JSON of
 * other data, an XML of another kind, any other text). Throws AtlasError for a descriptor that is malformed.
 */
export function parseAtlasDescriptor(text: string): ParsedAtlas | null {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('{')) return parseJsonAtlas(body);
  if (body.startsWith('<')) return parseXmlAtlas(body);
  if (looksLikeLibgdxAtlas(body)) return parseLibgdxAtlas(body);
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared checks

function integer(value: unknown, what: string): number {
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isFinite(number))
    throw new AtlasError(`${what} is not a number.`);
  if (!Number.isInteger(number)) throw new AtlasError(`${what} is not a whole number of pixels (${number}).`);
  if (Math.abs(number) > limits.atlas.maxFrameSide)
    throw new AtlasError(`${what} is ${number}: more than ${limits.atlas.maxFrameSide} pixels.`);
  return number;
}

function positive(value: unknown, what: string): number {
  const number = integer(value, what);
  if (number <= 0) throw new AtlasError(`${what} is ${number}: it must be at least 1 pixel.`);
  return number;
}

function atLeastZero(value: unknown, what: string): number {
  const number = integer(value, what);
  if (number < 0) throw new AtlasError(`${what} is ${number}: it cannot be negative.`);
  return number;
}

/**
 * A frame's pivot: null when the descriptor gives none, or when it is no pair of finite numbers (`"abc"`, `1e999`):
 * then the frame's name goes to `unreadable`, and the frame is read without one (pivotProblems says so once).
 */
function pivotOf(
  x: unknown,
  y: unknown,
  name: string,
  unreadable: string[],
): { x: number; y: number } | null {
  if (x === undefined && y === undefined) return null;
  const number = (value: unknown) =>
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  const pivot = { x: number(x), y: number(y) };
  if (Number.isFinite(pivot.x) && Number.isFinite(pivot.y)) return pivot;
  unreadable.push(name);
  return null;
}

/** One problem line for the frames whose pivot could not be read (a descriptor of 10,000 such frames gets one). */
function pivotProblems(unreadable: string[]): string[] {
  if (unreadable.length === 0) return [];
  const others = unreadable.length - 1;
  const which = `Frame "${unreadable[0]}"${others > 0 ? ` and ${others} other frame${others === 1 ? '' : 's'}` : ''}`;
  return [
    `${which}: the pivot is not a pair of finite numbers, so ${others > 0 ? 'they are' : 'it is'} read without a pivot.`,
  ];
}

function countFrames(count: number): void {
  if (count > limits.atlas.maxFrames) {
    throw new AtlasError(`It names ${count} frames: at most ${limits.atlas.maxFrames} are read.`);
  }
}

function countPages(count: number): void {
  if (count === 0) throw new AtlasError('It names no sheet image.');
  if (count > limits.atlas.maxPages)
    throw new AtlasError(`It names ${count} sheet images: at most ${limits.atlas.maxPages} are read.`);
}

/** Makes frame names unique: a repeated name gets ` (2)`, ` (3)`… in the order the descriptor lists them. */
function uniqueNames(frames: AtlasFrame[]): AtlasFrame[] {
  const seen = new Map<string, number>();
  return frames.map((frame) => {
    const count = (seen.get(frame.name) ?? 0) + 1;
    seen.set(frame.name, count);
    return count === 1 ? frame : { ...frame, name: `${frame.name} (${count})` };
  });
}

/**
 * A frame from what every format tells in its own words: the sprite's size before rotation as stored (trimmed),
 * where it sits on the page, its rotation, its full size and where the trimmed pixels sit in it.
 */
function frame(input: {
  name: string;
  page: number;
  x: number;
  y: number;
  /** The stored sprite's size before its rotation on the page. */
  w: number;
  h: number;
  rotation: AtlasRotation;
  sourceW: number;
  sourceH: number;
  offsetX: number;
  offsetY: number;
  pivot?: { x: number; y: number } | null;
}): AtlasFrame {
  const turned = input.rotation === 90 || input.rotation === 270;
  const trimmed =
    input.w !== input.sourceW || input.h !== input.sourceH || input.offsetX !== 0 || input.offsetY !== 0;
  if (
    input.offsetX < 0 ||
    input.offsetY < 0 ||
    input.offsetX + input.w > input.sourceW ||
    input.offsetY + input.h > input.sourceH
  ) {
    throw new AtlasError(
      `Frame "${input.name}": its trimmed pixels (${input.w}×${input.h} at ${input.offsetX},${input.offsetY}) lie outside its size ${input.sourceW}×${input.sourceH}.`,
    );
  }
  return {
    name: input.name,
    page: input.page,
    rect: { x: input.x, y: input.y, w: turned ? input.h : input.w, h: turned ? input.w : input.h },
    rotated: input.rotation !== 0,
    rotation: input.rotation,
    trimmed,
    sourceSize: { w: input.sourceW, h: input.sourceH },
    offset: { x: input.offsetX, y: input.offsetY },
    pivot: input.pivot ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// TexturePacker JSON (hash, array), Pixi/Hexi, Phaser 3 multi-atlas

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJsonAtlas(body: string): ParsedAtlas | null {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    // Only a file that reads like an atlas is reported: any other broken JSON is no concern of sheets.
    if (/"frames"\s*:/.test(body) && /"(meta|textures)"\s*:/.test(body)) {
      throw new AtlasError(
        `It is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    return null;
  }
  if (!isObject(data)) return null;
  if (
    Array.isArray(data.textures) &&
    data.textures.length > 0 &&
    data.textures.every((t) => isObject(t) && 'frames' in t)
  ) {
    return parsePhaserMultiatlas(data.textures as Json[]);
  }
  if (!('frames' in data) || !isObject(data.meta) || typeof data.meta.image !== 'string') return null;
  const meta = data.meta;
  const page: ParsedPage = { image: meta.image as string, ...declaredSize(meta.size, 'meta.size') };
  const hash = isObject(data.frames);
  if (!hash && !Array.isArray(data.frames))
    throw new AtlasError('Its "frames" is neither an object nor a list.');
  const entries = hash
    ? Object.entries(data.frames as Json)
    : (data.frames as unknown[]).map((f) => [isObject(f) ? f.filename : undefined, f] as const);
  countFrames(entries.length);
  const unreadablePivots: string[] = [];
  const frames = entries.map(([name, value], index) =>
    texturePackerFrame(name, value, 0, index, unreadablePivots),
  );
  return {
    format: hash ? 'texturepacker-hash' : 'texturepacker-array',
    pages: [page],
    frames: uniqueNames(frames),
    problems: pivotProblems(unreadablePivots),
  };
}

function parsePhaserMultiatlas(textures: Json[]): ParsedAtlas {
  countPages(textures.length);
  const pages: ParsedPage[] = [];
  const frames: AtlasFrame[] = [];
  const unreadablePivots: string[] = [];
  textures.forEach((texture, page) => {
    if (typeof texture.image !== 'string') throw new AtlasError(`textures[${page}] names no image.`);
    pages.push({ image: texture.image, ...declaredSize(texture.size, `textures[${page}].size`) });
    if (!Array.isArray(texture.frames)) throw new AtlasError(`textures[${page}].frames is not a list.`);
    countFrames(frames.length + texture.frames.length);
    texture.frames.forEach((value, index) => {
      frames.push(
        texturePackerFrame(
          isObject(value) ? value.filename : undefined,
          value,
          page,
          index,
          unreadablePivots,
        ),
      );
    });
  });
  return {
    format: 'phaser-multiatlas',
    pages,
    frames: uniqueNames(frames),
    problems: pivotProblems(unreadablePivots),
  };
}

function declaredSize(value: unknown, what: string): { width?: number; height?: number } {
  if (!isObject(value)) return {};
  return { width: positive(value.w, `${what}.w`), height: positive(value.h, `${what}.h`) };
}

/**
 * One TexturePacker frame: `frame` is where it sits, with the sprite's size before rotation (Pixi and Phaser swap
 * w and h for a rotated frame); `spriteSourceSize` where the trimmed pixels sit in `sourceSize`.
 */
function texturePackerFrame(
  name: unknown,
  value: unknown,
  page: number,
  index: number,
  unreadablePivots: string[],
): AtlasFrame {
  if (typeof name !== 'string' || name === '') throw new AtlasError(`Frame ${index + 1} has no name.`);
  if (!isObject(value) || !isObject(value.frame))
    throw new AtlasError(`Frame "${name}" has no "frame" rectangle.`);
  const at = value.frame;
  const w = positive(at.w, `Frame "${name}" width`);
  const h = positive(at.h, `Frame "${name}" height`);
  const source = isObject(value.sourceSize) ? value.sourceSize : { w, h };
  const trim = isObject(value.spriteSourceSize) ? value.spriteSourceSize : { x: 0, y: 0 };
  // JSON.parse reads 1e999 as Infinity: pivotOf refuses it as it refuses a string.
  const pivot =
    value.pivot === undefined
      ? null
      : isObject(value.pivot)
        ? pivotOf(value.pivot.x, value.pivot.y, name, unreadablePivots)
        : pivotOf(NaN, NaN, name, unreadablePivots);
  return frame({
    name,
    page,
    x: atLeastZero(at.x, `Frame "${name}" x`),
    y: atLeastZero(at.y, `Frame "${name}" y`),
    w,
    h,
    rotation: value.rotated === true ? 90 : 0,
    sourceW: positive(source.w, `Frame "${name}" source width`),
    sourceH: positive(source.h, `Frame "${name}" source height`),
    offsetX: integer(trim.x ?? 0, `Frame "${name}" trim x`),
    offsetY: integer(trim.y ?? 0, `Frame "${name}" trim y`),
    pivot,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// XML: Starling/Sparrow and Cocos2d plist

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Reads an XML document into a small element tree (saxes, as the SVG check does); null: it is not well-formed. */
function readXml(body: string): { root: XmlElement } | { error: string } {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  let failure: string | undefined;
  parser.on('error', (error) => {
    failure ??= error.message;
  });
  parser.on('opentag', (tag) => {
    if (++count > limits.atlas.maxFrames * 12)
      throw new AtlasError(`It holds more than ${limits.atlas.maxFrames * 12} elements.`);
    // The tree is read (plistValue) by recursion: a document nested deeper would exhaust the stack.
    if (stack.length >= limits.atlas.maxDepth)
      throw new AtlasError(`It nests elements more than ${limits.atlas.maxDepth} deep.`);
    const element: XmlElement = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('text', (text) => {
    const top = stack.at(-1);
    if (top) top.text += text;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(body).close();
  } catch (error) {
    if (error instanceof AtlasError) throw error;
    failure ??= error instanceof Error ? error.message : String(error);
  }
  if (failure !== undefined || !root) return { error: failure ?? 'it is empty' };
  return { root };
}

function parseXmlAtlas(body: string): ParsedAtlas | null {
  // Only a file that reads like an atlas is reported: any other XML is no concern of sheets.
  const looksLikeAtlas = () => /<TextureAtlas\b/.test(body) || /<key>\s*frames\s*<\/key>/.test(body);
  let read: ReturnType<typeof readXml>;
  try {
    read = readXml(body);
  } catch (error) {
    if (error instanceof AtlasError && !looksLikeAtlas()) return null;
    throw error;
  }
  if ('error' in read) {
    if (looksLikeAtlas()) throw new AtlasError(`It is not well-formed XML: ${read.error.split('\n')[0]}.`);
    return null;
  }
  if (read.root.name === 'TextureAtlas') return parseStarling(read.root);
  if (read.root.name === 'plist') return parseCocosPlist(read.root);
  return null;
}

/**
 * Starling/Sparrow: `<TextureAtlas imagePath>` of `<SubTexture name x y width height [rotated] [frameX frameY
 * frameWidth frameHeight]>`. width and height are as on the page (turned for a rotated frame); frameX/frameY are
 * the negated position of the trimmed pixels in the full frame.
 */
function parseStarling(root: XmlElement): ParsedAtlas {
  const image = root.attributes.imagePath;
  if (!image) throw new AtlasError('Its <TextureAtlas> has no imagePath.');
  const page: ParsedPage = {
    image,
    ...(root.attributes.width && root.attributes.height
      ? {
          width: positive(root.attributes.width, 'The atlas width'),
          height: positive(root.attributes.height, 'The atlas height'),
        }
      : {}),
  };
  const subTextures = root.children.filter((child) => child.name === 'SubTexture');
  countFrames(subTextures.length);
  const unreadablePivots: string[] = [];
  const frames = subTextures.map((sub, index) => {
    const a = sub.attributes;
    const name = a.name;
    if (!name) throw new AtlasError(`SubTexture ${index + 1} has no name.`);
    const rotation: AtlasRotation = a.rotated === 'true' ? 90 : 0;
    const pageW = positive(a.width, `Frame "${name}" width`);
    const pageH = positive(a.height, `Frame "${name}" height`);
    const [w, h] = rotation ? [pageH, pageW] : [pageW, pageH];
    const hasFrame = a.frameWidth !== undefined && a.frameHeight !== undefined;
    return frame({
      name,
      page: 0,
      x: atLeastZero(a.x, `Frame "${name}" x`),
      y: atLeastZero(a.y, `Frame "${name}" y`),
      w,
      h,
      rotation,
      sourceW: hasFrame ? positive(a.frameWidth, `Frame "${name}" frameWidth`) : w,
      sourceH: hasFrame ? positive(a.frameHeight, `Frame "${name}" frameHeight`) : h,
      offsetX: -integer(a.frameX ?? 0, `Frame "${name}" frameX`),
      offsetY: -integer(a.frameY ?? 0, `Frame "${name}" frameY`),
      pivot: pivotOf(a.pivotX, a.pivotY, name, unreadablePivots),
    });
  });
  return {
    format: 'starling',
    pages: [page],
    frames: uniqueNames(frames),
    problems: pivotProblems(unreadablePivots),
  };
}

type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };

function plistValue(element: XmlElement): PlistValue {
  switch (element.name) {
    case 'dict': {
      const dict: Record<string, PlistValue> = {};
      for (let i = 0; i < element.children.length; i += 2) {
        const key = element.children[i]!;
        const value = element.children[i + 1];
        if (key.name !== 'key' || !value)
          throw new AtlasError('A <dict> does not alternate <key> and value.');
        dict[key.text.trim()] = plistValue(value);
      }
      return dict;
    }
    case 'array':
      return element.children.map(plistValue);
    case 'integer':
    case 'real':
      return Number(element.text.trim());
    case 'true':
      return true;
    case 'false':
      return false;
    default:
      return element.text;
  }
}

/** Cocos2d's "{a,b}" and "{{a,b},{c,d}}" strings, as numbers. */
function plistNumbers(value: PlistValue | undefined, count: number, what: string): number[] {
  if (typeof value !== 'string') throw new AtlasError(`${what} is missing.`);
  const numbers = value
    .replace(/[{}\s]/g, '')
    .split(',')
    .filter((part) => part !== '')
    .map(Number);
  if (numbers.length !== count || numbers.some((n) => !Number.isFinite(n)))
    throw new AtlasError(`${what} "${value}" is not ${count} numbers.`);
  return numbers;
}

/**
 * Cocos2d plist, formats 2 and 3 (TexturePacker's cocos2d and cocos2d-x exports): `frames` maps names to `frame`
 * (format 2) or `textureRect` (3), the sprite's size before rotation; format 2 gives the trimmed pixels' place in
 * `sourceColorRect`, format 3 only `spriteOffset`, the trimmed rect's centre from the full size's centre with y up.
 */
function parseCocosPlist(root: XmlElement): ParsedAtlas | null {
  const top = root.children[0];
  if (!top || top.name !== 'dict') return null;
  const data = plistValue(top);
  if (!isObject(data) || !isObject(data.frames) || !isObject(data.metadata)) return null;
  const metadata = data.metadata as Record<string, PlistValue>;
  const format = Number(metadata.format ?? 0);
  if (format !== 2 && format !== 3)
    throw new AtlasError(`It is a Cocos2d plist of format ${format}: formats 2 and 3 are read.`);
  const image = metadata.realTextureFileName ?? metadata.textureFileName;
  if (typeof image !== 'string' || image === '') throw new AtlasError('Its metadata names no texture file.');
  const page: ParsedPage = { image };
  if (typeof metadata.size === 'string') {
    const [width, height] = plistNumbers(metadata.size, 2, 'The metadata size');
    Object.assign(page, {
      width: positive(width, 'The sheet width'),
      height: positive(height, 'The sheet height'),
    });
  }
  const entries = Object.entries(data.frames as Record<string, PlistValue>);
  countFrames(entries.length);
  const frames = entries.map(([name, value]) => {
    if (!isObject(value)) throw new AtlasError(`Frame "${name}" is not a <dict>.`);
    const f = value as Record<string, PlistValue>;
    const [x, y, w, h] = plistNumbers(
      format === 2 ? f.frame : f.textureRect,
      4,
      `Frame "${name}" ${format === 2 ? 'frame' : 'textureRect'}`,
    ) as [number, number, number, number];
    const [sourceW, sourceH] = plistNumbers(
      format === 2 ? f.sourceSize : f.spriteSourceSize,
      2,
      `Frame "${name}" source size`,
    ) as [number, number];
    let offsetX: number;
    let offsetY: number;
    if (format === 2 && typeof f.sourceColorRect === 'string') {
      [offsetX, offsetY] = plistNumbers(f.sourceColorRect, 4, `Frame "${name}" sourceColorRect`) as [
        number,
        number,
      ];
    } else {
      const [ox, oy] = plistNumbers(
        format === 2 ? f.offset : f.spriteOffset,
        2,
        `Frame "${name}" offset`,
      ) as [number, number];
      offsetX = Math.round((sourceW - w) / 2 + ox);
      offsetY = Math.round((sourceH - h) / 2 - oy);
    }
    return frame({
      name,
      page: 0,
      x: atLeastZero(x, `Frame "${name}" x`),
      y: atLeastZero(y, `Frame "${name}" y`),
      w: positive(w, `Frame "${name}" width`),
      h: positive(h, `Frame "${name}" height`),
      rotation: (format === 2 ? f.rotated : f.textureRotated) === true ? 90 : 0,
      sourceW: positive(sourceW, `Frame "${name}" source width`),
      sourceH: positive(sourceH, `Frame "${name}" source height`),
      offsetX: integer(offsetX, `Frame "${name}" offset x`),
      offsetY: integer(offsetY, `Frame "${name}" offset y`),
    });
  });
  return { format: 'cocos-plist', pages: [page], frames: uniqueNames(frames), problems: [] };
}

// ---------------------------------------------------------------------------------------------------------------
// libGDX / Spine `.atlas` text: the old format (xy, size, orig, offset) and the 4.x one (bounds, offsets)

const imageLine = /^[^:\s][^:]*\.(png|jpe?g|webp|gif|bmp|ktx2?|basis)$/i;

function looksLikeLibgdxAtlas(body: string): boolean {
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

function parseLibgdxAtlas(body: string): ParsedAtlas {
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
