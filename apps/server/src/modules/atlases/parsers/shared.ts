import { limits, type AtlasFormat, type AtlasFrame, type AtlasRotation } from '@reskin/contract';

/**
 * What every descriptor parser shares (decision 0028): the parsed model, the error a malformed descriptor throws,
 * and the checks that turn a format's numbers into the contract's frames.
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

export function integer(value: unknown, what: string): number {
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isFinite(number))
    throw new AtlasError(`${what} is not a number.`);
  if (!Number.isInteger(number)) throw new AtlasError(`${what} is not a whole number of pixels (${number}).`);
  if (Math.abs(number) > limits.atlas.maxFrameSide)
    throw new AtlasError(`${what} is ${number}: more than ${limits.atlas.maxFrameSide} pixels.`);
  return number;
}

export function positive(value: unknown, what: string): number {
  const number = integer(value, what);
  if (number <= 0) throw new AtlasError(`${what} is ${number}: it must be at least 1 pixel.`);
  return number;
}

export function atLeastZero(value: unknown, what: string): number {
  const number = integer(value, what);
  if (number < 0) throw new AtlasError(`${what} is ${number}: it cannot be negative.`);
  return number;
}

/**
 * A frame's pivot: null when the descriptor gives none, or when it is no pair of finite numbers (`"abc"`, `1e999`):
 * then the frame's name goes to `unreadable`, and the frame is read without one (pivotProblems says so once).
 */
export function pivotOf(
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
export function pivotProblems(unreadable: string[]): string[] {
  if (unreadable.length === 0) return [];
  const others = unreadable.length - 1;
  const which = `Frame "${unreadable[0]}"${others > 0 ? ` and ${others} other frame${others === 1 ? '' : 's'}` : ''}`;
  return [
    `${which}: the pivot is not a pair of finite numbers, so ${others > 0 ? 'they are' : 'it is'} read without a pivot.`,
  ];
}

export function countFrames(count: number): void {
  if (count > limits.atlas.maxFrames) {
    throw new AtlasError(`It names ${count} frames: at most ${limits.atlas.maxFrames} are read.`);
  }
}

export function countPages(count: number): void {
  if (count === 0) throw new AtlasError('It names no sheet image.');
  if (count > limits.atlas.maxPages)
    throw new AtlasError(`It names ${count} sheet images: at most ${limits.atlas.maxPages} are read.`);
}

/** Makes frame names unique: a repeated name gets ` (2)`, ` (3)`… in the order the descriptor lists them. */
export function uniqueNames(frames: AtlasFrame[]): AtlasFrame[] {
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
export function frame(input: {
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

/** A JSON object, or a Cocos2d plist's <dict> read into one. */
export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
