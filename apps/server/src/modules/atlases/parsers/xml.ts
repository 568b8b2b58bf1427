import { SaxesParser } from 'saxes';
import { limits, type AtlasRotation } from '@reskin/contract';
import {
  AtlasError,
  atLeastZero,
  countFrames,
  frame,
  integer,
  isObject,
  pivotOf,
  pivotProblems,
  positive,
  uniqueNames,
  type ParsedAtlas,
  type ParsedPage,
} from './shared';

/** XML descriptors: Starling/Sparrow `<TextureAtlas>` and Cocos2d plist, read into one small element tree. */

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

export function parseXmlAtlas(body: string): ParsedAtlas | null {
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
