import type { AtlasFrame } from '@reskin/contract';
import {
  AtlasError,
  atLeastZero,
  countFrames,
  countPages,
  frame,
  integer,
  isObject,
  pivotOf,
  pivotProblems,
  positive,
  uniqueNames,
  type Json,
  type ParsedAtlas,
  type ParsedPage,
} from './shared';

/** TexturePacker JSON (hash, array), Pixi/Hexi and Phaser 3 multi-atlas: one family, told apart by its keys. */

export function parseJsonAtlas(body: string): ParsedAtlas | null {
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
