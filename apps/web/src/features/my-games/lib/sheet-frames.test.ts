import { validationMessages as m, type AtlasFrame } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { frameDrawing } from '../../../components/atlas-frame';
import { filterFrames, frameSizeRefusal } from './sheet-frames';

const frame = (overrides: Partial<AtlasFrame>): AtlasFrame => ({
  name: 'hero',
  page: 0,
  rect: { x: 10, y: 20, w: 5, h: 6 },
  rotated: false,
  rotation: 0,
  trimmed: false,
  sourceSize: { w: 5, h: 6 },
  offset: { x: 0, y: 0 },
  pivot: null,
  ...overrides,
});

/** Where a point of the stored rect (from its top left) lands on the frame's canvas. */
function land(drawing: ReturnType<typeof frameDrawing>, x: number, y: number): [number, number] {
  const lx = x - drawing.source.w / 2;
  const ly = y - drawing.source.h / 2;
  const cos = Math.cos(drawing.angle);
  const sin = Math.sin(drawing.angle);
  // + 0 turns a -0 into 0.
  return [
    Math.round(lx * cos - ly * sin + drawing.centre.x) + 0,
    Math.round(lx * sin + ly * cos + drawing.centre.y) + 0,
  ];
}

describe('frameDrawing (a frame shown upright at its source size)', () => {
  it('places a trimmed frame at its offset inside its source size', () => {
    const drawing = frameDrawing(
      frame({ trimmed: true, sourceSize: { w: 12, h: 14 }, offset: { x: 3, y: 4 } }),
    );
    expect([drawing.width, drawing.height]).toEqual([12, 14]);
    expect(drawing.source).toEqual({ x: 10, y: 20, w: 5, h: 6 });
    expect(land(drawing, 0, 0)).toEqual([3, 4]);
    expect(land(drawing, 5, 6)).toEqual([8, 10]);
  });

  it('turns a frame stored 90° clockwise (TexturePacker) back counter-clockwise', () => {
    // The sprite is 5 wide and 6 tall; on the page it lies 6 wide and 5 tall, its top left at the rect's top right.
    const drawing = frameDrawing(
      frame({
        rect: { x: 10, y: 20, w: 6, h: 5 },
        rotated: true,
        rotation: 90,
        sourceSize: { w: 7, h: 8 },
        offset: { x: 1, y: 2 },
        trimmed: true,
      }),
    );
    expect(land(drawing, 6, 0)).toEqual([1, 2]);
    expect(land(drawing, 0, 5)).toEqual([6, 8]);
  });

  it('turns a frame stored 90° counter-clockwise (libGDX rotate: 270 in the model) back clockwise', () => {
    // The sprite's top left lies at the rect's bottom left.
    const drawing = frameDrawing(frame({ rect: { x: 10, y: 20, w: 6, h: 5 }, rotated: true, rotation: 270 }));
    expect([drawing.width, drawing.height]).toEqual([5, 6]);
    expect(land(drawing, 0, 5)).toEqual([0, 0]);
    expect(land(drawing, 6, 0)).toEqual([5, 6]);
  });
});

describe('filterFrames and frameSizeRefusal', () => {
  it('keeps the frames whose name holds the filter, ignoring case', () => {
    const frames = [{ name: 'Hero/walk_01' }, { name: 'hero/run_01' }, { name: 'coin' }];
    expect(filterFrames(frames, ' HERO ').map((f) => f.name)).toEqual(['Hero/walk_01', 'hero/run_01']);
    expect(filterFrames(frames, '')).toHaveLength(3);
  });

  it("names the frame's source size when an image has another size", () => {
    const coin = frame({ name: 'coin', sourceSize: { w: 48, h: 32 } });
    expect(frameSizeRefusal(coin, { width: 48, height: 32 })).toBeNull();
    expect(frameSizeRefusal(coin, { width: 40, height: 32 })).toBe(
      m.frameSize('coin', { w: 48, h: 32 }, { width: 40, height: 32 }),
    );
    expect(frameSizeRefusal(coin, { width: 40, height: 32 })).toBe(
      'The frame "coin" is 48 × 32 pixels; this image is 40 × 32.',
    );
  });
});
