import {
  atlasTexts,
  framesOfSheet,
  gridFrameCount,
  gridFrames,
  gridProblem,
  limits,
  sheetsOf,
  type Atlas,
  type GameAtlases,
} from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { gridOfAtlas } from './sheets';

const gridAtlas = (
  fileId: number,
  width: number,
  height: number,
  grid: Parameters<typeof gridFrames>[2],
): Atlas => ({
  descriptor: `sheet${fileId}.png`,
  descriptorFileId: fileId,
  format: 'grid',
  pages: [{ image: `sheet${fileId}.png`, fileId, width, height }],
  frames: gridFrames(width, height, grid),
});

describe('sprite sheets on the web', () => {
  it("counts a grid's whole frames as gridFrames cuts them, and says why a grid cannot be used", () => {
    for (const [width, height, frameWidth, frameHeight, margin, spacing] of [
      [71, 54, 16, 16, 2, 1],
      [64, 16, 16, 16, 0, 0],
      [63, 16, 16, 16, 0, 0],
      [100, 30, 7, 9, 3, 5],
      [8, 8, 8, 8, 1, 0],
    ] as const) {
      const grid = { frameWidth, frameHeight, margin, spacing };
      expect(gridFrameCount(width, height, grid)).toBe(gridFrames(width, height, grid).length);
    }
    expect(gridProblem(8, 8, { frameWidth: 8, frameHeight: 8, margin: 1, spacing: 0 })).toBe(
      'A 8×8 frame with a margin of 1 px does not fit in the 8×8 image.',
    );
    expect(gridProblem(200, 60, { frameWidth: 1, frameHeight: 1, margin: 0, spacing: 0 })).toBe(
      `The grid cuts 12000 frames; a sheet may have at most ${limits.atlas.maxFrames}.`,
    );
    expect(gridProblem(64, 16, { frameWidth: 16, frameHeight: 16, margin: 0, spacing: 0 })).toBeNull();
  });

  it('finds the sheets an image is a page of, a frame by name, and reads a grid back from its frames', () => {
    const grid = { frameWidth: 16, frameHeight: 16, margin: 2, spacing: 1 };
    const found: GameAtlases = {
      atlases: [
        gridAtlas(3, 71, 54, grid),
        gridAtlas(4, 32, 16, { frameWidth: 16, frameHeight: 16, margin: 0, spacing: 0 }),
      ],
      problems: [],
    };
    expect(sheetsOf(found.atlases, 3).map((sheet) => sheet.frames.length)).toEqual([12]);
    expect(sheetsOf(found.atlases, 9)).toEqual([]);
    expect(framesOfSheet(found.atlases, 3).frames.get('5')?.rect).toEqual({ x: 19, y: 19, w: 16, h: 16 });
    expect(framesOfSheet(found.atlases, 4).frames.get('5')).toBeUndefined();
    expect(gridOfAtlas(found.atlases[0]!)).toEqual(grid);
    expect(gridOfAtlas(found.atlases[1]!)).toEqual({
      frameWidth: 16,
      frameHeight: 16,
      margin: 0,
      spacing: 0,
    });
  });

  it('words the badge, the problem and the find result', () => {
    expect(atlasTexts.sheetBadge(12, 'grid')).toBe('Sprite sheet · 12 frames · Uniform grid');
    expect(atlasTexts.sheetBadge(1, 'texturepacker-hash')).toBe(
      'Sprite sheet · 1 frame · TexturePacker JSON (hash)',
    );
    expect(atlasTexts.notUsed('Its image a.png is not in the game.')).toBe(
      'Not used as a sprite sheet: Its image a.png is not in the game.',
    );
    expect(atlasTexts.found(2, 1)).toBe('Found 2 sprite sheets; 1 file not used as sprite sheets.');
    expect(atlasTexts.found(1, 0)).toBe('Found 1 sprite sheet.');
  });
});
