import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gridFrames, limits, storedSpriteSize } from '@reskin/contract';
import { AtlasError, parseAtlasDescriptor } from './atlas-parsers';
import { resolveAtlas, resolveImagePath, type AtlasGameFile } from './atlas-resolution';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/atlases/${name}`, import.meta.url), 'utf8');
const parse = (text: string) => {
  const atlas = parseAtlasDescriptor(text);
  if (!atlas) throw new Error('not recognised as a descriptor');
  return atlas;
};
const frameNamed = (atlas: ReturnType<typeof parse>, name: string) => {
  const found = atlas.frames.find((frame) => frame.name === name);
  if (!found) throw new Error(`no frame ${name}`);
  return found;
};

describe('sprite sheet descriptors from public games', () => {
  it('reads a TexturePacker JSON hash (Hexi), with its pivots', () => {
    const atlas = parse(fixture('hexi-animals.json'));
    expect(atlas.format).toBe('texturepacker-hash');
    expect(atlas.pages).toEqual([{ image: 'animals.png', width: 200, height: 68 }]);
    expect(atlas.frames.map((frame) => frame.name)).toEqual(['cat.png', 'hedgehog.png', 'tiger.png']);
    expect(frameNamed(atlas, 'tiger.png')).toEqual({
      name: 'tiger.png',
      page: 0,
      rect: { x: 134, y: 2, w: 64, h: 64 },
      rotated: false,
      rotation: 0,
      trimmed: false,
      sourceSize: { w: 64, h: 64 },
      offset: { x: 0, y: 0 },
      pivot: { x: 0.5, y: 0.5 },
    });
  });

  it('reads trimmed and rotated TexturePacker frames (Pixi): a rotated frame occupies h×w on the page', () => {
    const atlas = parse(fixture('pixi-sprite-sheet-trim.json'));
    expect(frameNamed(atlas, 'paws_1')).toMatchObject({
      rect: { x: 1089, y: 200, w: 129, h: 175 },
      trimmed: true,
      rotation: 0,
      sourceSize: { w: 361, h: 361 },
      offset: { x: 56, y: 121 },
    });
    const paws2 = frameNamed(atlas, 'paws_2');
    expect(paws2).toMatchObject({
      rect: { x: 1089, y: 4, w: 189, h: 191 },
      rotated: true,
      rotation: 90,
      trimmed: true,
      offset: { x: 4, y: 153 },
    });
    expect(storedSpriteSize(paws2)).toEqual({ w: 191, h: 189 });
  });

  it('reads each sheet of a TexturePacker multipack (Pixi) as its own atlas', () => {
    expect(parse(fixture('pixi-multi-pack-0.json')).pages[0]!.image).toBe('multi-pack-0.png');
    expect(parse(fixture('pixi-multi-pack-1.json')).frames).toHaveLength(1);
  });

  it('reads a Starling XML atlas: width and height as on the page, frameX/frameY as the trim offset', () => {
    const atlas = parse(fixture('starling-demo-atlas.xml'));
    expect(atlas.format).toBe('starling');
    expect(atlas.pages).toEqual([{ image: 'atlas.png', width: 788, height: 788 }]);
    expect(atlas.frames).toHaveLength(23);
    // <SubTexture name="flight_02" x="362" y="312" rotated="true" width="151" height="167" frameX="-41" frameY="-32" frameWidth="220" frameHeight="220"/>
    const flight = frameNamed(atlas, 'flight_02');
    expect(flight).toMatchObject({
      rect: { x: 362, y: 312, w: 151, h: 167 },
      rotation: 90,
      sourceSize: { w: 220, h: 220 },
      offset: { x: 41, y: 32 },
    });
    expect(storedSpriteSize(flight)).toEqual({ w: 167, h: 151 });
  });

  it('reads a Spine 4 atlas with several pages, counter-clockwise rotation as 270° clockwise', () => {
    const atlas = parse(fixture('spine4-dragon.atlas'));
    expect(atlas.format).toBe('libgdx');
    expect(atlas.pages.map((page) => page.image)).toEqual([
      'dragon.png',
      'dragon_2.png',
      'dragon_3.png',
      'dragon_4.png',
      'dragon_5.png',
    ]);
    // head: bounds 647, 81, 296, 260; rotate: 90 (stored turned a quarter counter-clockwise: 260 wide, 296 high).
    expect(frameNamed(atlas, 'head')).toMatchObject({
      page: 0,
      rect: { x: 647, y: 81, w: 260, h: 296 },
      rotation: 270,
      sourceSize: { w: 296, h: 260 },
    });
    expect(atlas.frames.every((frame) => frame.page >= 0 && frame.page < 5)).toBe(true);
    expect(new Set(atlas.frames.map((frame) => frame.page)).size).toBe(5);
  });

  it('reads Spine 4 offsets from the bottom left and names indexed regions name#index', () => {
    const atlas = parse(fixture('spine4-spineboy-run.atlas'));
    // spineboy-pro-run index 0: bounds 306, 438, 245, 320; offsets 67, 1, 316, 341; rotate: 90.
    expect(frameNamed(atlas, 'spineboy-pro-run#0')).toMatchObject({
      rect: { x: 306, y: 438, w: 320, h: 245 },
      rotation: 270,
      trimmed: true,
      sourceSize: { w: 316, h: 341 },
      offset: { x: 67, y: 341 - 320 - 1 },
    });
    expect(atlas.frames.map((frame) => frame.name)).toContain('spineboy-pro-run#9');
  });

  it('reads the old libGDX format (xy, size, orig, offset, rotate: true)', () => {
    const atlas = parse(fixture('libgdx-spineboy-old.atlas'));
    expect(atlas.pages).toEqual([{ image: 'spineboy-old-diffuse.png', width: 512, height: 128 }]);
    expect(frameNamed(atlas, 'eyes')).toMatchObject({
      rect: { x: 439, y: 99, w: 34, h: 27 },
      rotation: 0,
      trimmed: false,
    });
    expect(frameNamed(atlas, 'head')).toMatchObject({ rect: { x: 2, y: 5, w: 132, h: 121 }, rotation: 270 });
  });

  it('reads a Cocos2d plist of format 2: sourceColorRect as the trim offset', () => {
    const atlas = parse(fixture('cocos-moonwarriors-opaque.plist'));
    expect(atlas.format).toBe('cocos-plist');
    expect(atlas.pages).toEqual([{ image: 'textureOpaquePack.png', width: 256, height: 256 }]);
    // W1.png: frame {{23,232},{12,30}}, rotated, sourceColorRect {{2,32},{12,30}}, sourceSize {14,62}, offset {1,-16}.
    expect(frameNamed(atlas, 'W1.png')).toMatchObject({
      rect: { x: 23, y: 232, w: 30, h: 12 },
      rotation: 90,
      trimmed: true,
      sourceSize: { w: 14, h: 62 },
      offset: { x: 2, y: 32 },
    });
  });
});

describe('descriptors made here: the formats and cases the public ones lack', () => {
  it('reads a Phaser 3 multi-atlas (textures[] of pages with frame arrays)', () => {
    const atlas = parse(
      JSON.stringify({
        textures: [
          {
            image: 'sheet-0.png',
            format: 'RGBA8888',
            size: { w: 128, h: 64 },
            scale: 1,
            frames: [
              {
                filename: 'ship',
                rotated: false,
                trimmed: false,
                sourceSize: { w: 32, h: 16 },
                spriteSourceSize: { x: 0, y: 0, w: 32, h: 16 },
                frame: { x: 0, y: 0, w: 32, h: 16 },
              },
            ],
          },
          {
            image: 'sheet-1.png',
            format: 'RGBA8888',
            size: { w: 64, h: 64 },
            scale: 1,
            frames: [
              {
                filename: 'rock',
                rotated: true,
                trimmed: true,
                sourceSize: { w: 20, h: 10 },
                spriteSourceSize: { x: 2, y: 1, w: 16, h: 8 },
                frame: { x: 4, y: 4, w: 16, h: 8 },
              },
            ],
          },
        ],
        meta: { app: 'https://www.codeandweb.com/texturepacker', version: '3.0' },
      }),
    );
    expect(atlas.format).toBe('phaser-multiatlas');
    expect(atlas.pages).toEqual([
      { image: 'sheet-0.png', width: 128, height: 64 },
      { image: 'sheet-1.png', width: 64, height: 64 },
    ]);
    expect(frameNamed(atlas, 'rock')).toMatchObject({
      page: 1,
      rect: { x: 4, y: 4, w: 8, h: 16 },
      rotation: 90,
      trimmed: true,
      offset: { x: 2, y: 1 },
    });
  });

  it('reads a TexturePacker JSON array', () => {
    const atlas = parse(
      JSON.stringify({
        frames: [{ filename: 'a', frame: { x: 1, y: 2, w: 3, h: 4 } }],
        meta: { image: 'img/a.png', size: { w: 10, h: 10 } },
      }),
    );
    expect(atlas.format).toBe('texturepacker-array');
    expect(atlas.frames[0]).toMatchObject({
      name: 'a',
      rect: { x: 1, y: 2, w: 3, h: 4 },
      sourceSize: { w: 3, h: 4 },
    });
  });

  it('reads a Cocos2d plist of format 3 (spriteOffset from the centre, y up)', () => {
    const plist = `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
  <key>frames</key><dict>
    <key>coin.png</key><dict>
      <key>aliases</key><array/>
      <key>spriteOffset</key><string>{1,-2}</string>
      <key>spriteSize</key><string>{10,12}</string>
      <key>spriteSourceSize</key><string>{16,20}</string>
      <key>textureRect</key><string>{{5,6},{10,12}}</string>
      <key>textureRotated</key><true/>
    </dict>
  </dict>
  <key>metadata</key><dict>
    <key>format</key><integer>3</integer>
    <key>size</key><string>{64,64}</string>
    <key>textureFileName</key><string>coins.png</string>
  </dict>
</dict></plist>`;
    const atlas = parse(plist);
    // (16 - 10) / 2 + 1 = 4 from the left; (20 - 12) / 2 - (-2) = 6 from the top.
    expect(atlas.frames[0]).toMatchObject({
      name: 'coin.png',
      rect: { x: 5, y: 6, w: 12, h: 10 },
      rotation: 90,
      sourceSize: { w: 16, h: 20 },
      offset: { x: 4, y: 6 },
    });
  });

  it('reads a libGDX atlas with header lines, rotate in degrees and two pages', () => {
    const text = [
      '',
      'a.png',
      'size: 64, 64',
      'filter: Linear, Linear',
      'one',
      '  bounds: 0, 0, 10, 20',
      '  rotate: 270',
      '',
      'b.png',
      'size: 32,32',
      'two',
      '  bounds: 1, 1, 4, 4',
      '',
    ].join('\n');
    const atlas = parse(text);
    expect(atlas.pages.map((page) => page.image)).toEqual(['a.png', 'b.png']);
    // rotate: 270 counter-clockwise is a quarter turn clockwise.
    expect(frameNamed(atlas, 'one')).toMatchObject({
      page: 0,
      rotation: 90,
      rect: { x: 0, y: 0, w: 20, h: 10 },
    });
    expect(frameNamed(atlas, 'two')).toMatchObject({ page: 1 });
  });

  it('cuts a uniform grid row by row with margin and spacing', () => {
    const frames = gridFrames(50, 30, { frameWidth: 10, frameHeight: 10, margin: 2, spacing: 3 });
    // Columns at 2, 15, 28 (41 + 10 > 48); rows at 2, 15 (28 + 10 > 28).
    expect(frames.map((frame) => [frame.name, frame.rect.x, frame.rect.y])).toEqual([
      ['0', 2, 2],
      ['1', 15, 2],
      ['2', 28, 2],
      ['3', 2, 15],
      ['4', 15, 15],
      ['5', 28, 15],
    ]);
  });

  it('answers null for files that are no descriptor', () => {
    for (const text of [
      '{"name":"level 1","tiles":[1,2,3]}',
      '{"frames": 3}',
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<html><body></body></html>',
      'console.log("hi")',
      '',
      'hello.png\nnot an atlas',
    ]) {
      expect(parseAtlasDescriptor(text), text).toBeNull();
    }
  });
});

describe('bad descriptors say why and never throw anything else', () => {
  const bad: [string, string, RegExp][] = [
    [
      'JSON syntax error',
      '{"frames": {"a": {"frame": {"x":0,"y":0,"w":1,"h":1}}, "meta": {"image": "a.png"',
      /not valid JSON/,
    ],
    [
      'XML syntax error',
      '<TextureAtlas imagePath="a.png"><SubTexture name="a" x="0" y="0" width="1" height="1"></TextureAtlas>',
      /not well-formed XML/,
    ],
    [
      'negative size',
      JSON.stringify({ frames: { a: { frame: { x: 0, y: 0, w: -4, h: 4 } } }, meta: { image: 'a.png' } }),
      /at least 1 pixel/,
    ],
    [
      'negative place',
      JSON.stringify({ frames: { a: { frame: { x: -1, y: 0, w: 4, h: 4 } } }, meta: { image: 'a.png' } }),
      /cannot be negative/,
    ],
    [
      'enormous size',
      JSON.stringify({ frames: { a: { frame: { x: 0, y: 0, w: 1e9, h: 4 } } }, meta: { image: 'a.png' } }),
      /more than 16384 pixels/,
    ],
    [
      'fractional size',
      JSON.stringify({ frames: { a: { frame: { x: 0, y: 0, w: 1.5, h: 4 } } }, meta: { image: 'a.png' } }),
      /whole number/,
    ],
    [
      'a frame without a rect',
      JSON.stringify({ frames: { a: {} }, meta: { image: 'a.png' } }),
      /no "frame" rectangle/,
    ],
    [
      'trim outside the source',
      JSON.stringify({
        frames: {
          a: {
            frame: { x: 0, y: 0, w: 8, h: 8 },
            spriteSourceSize: { x: 4, y: 0 },
            sourceSize: { w: 8, h: 8 },
          },
        },
        meta: { image: 'a.png' },
      }),
      /outside its size/,
    ],
    [
      'a Starling atlas without its image',
      '<TextureAtlas><SubTexture name="a" x="0" y="0" width="1" height="1"/></TextureAtlas>',
      /no imagePath/,
    ],
    ['a libGDX region without bounds', 'a.png\nsize: 8, 8\nregion\n  rotate: false\n', /has no bounds/],
    [
      'a plist of format 1',
      '<plist><dict><key>frames</key><dict/><key>metadata</key><dict><key>format</key><integer>1</integer></dict></dict></plist>',
      /format 1/,
    ],
  ];
  for (const [what, text, why] of bad) {
    it(`refuses ${what}`, () => {
      expect(() => parseAtlasDescriptor(text)).toThrow(AtlasError);
      expect(() => parseAtlasDescriptor(text)).toThrow(why);
    });
  }

  it('reads a frame whose pivot is no finite number without a pivot, and says so in one problem line', () => {
    const starling = parse(
      '<TextureAtlas imagePath="a.png"><SubTexture name="a" x="0" y="0" width="4" height="4" pivotX="abc" pivotY="2"/><SubTexture name="b" x="4" y="0" width="4" height="4" pivotX="1" pivotY="2"/></TextureAtlas>',
    );
    expect(starling.frames.map((frame) => frame.pivot)).toEqual([null, { x: 1, y: 2 }]);
    expect(starling.problems).toEqual([
      'Frame "a": the pivot is not a pair of finite numbers, so it is read without a pivot.',
    ]);

    // 1e999 (written where JSON.stringify left Infinity as null) is Infinity to JSON.parse; a missing y and a pivot
    // that is no object are no numbers either (a number written as a string is read, as every other number is).
    const frames = Object.fromEntries(
      [{ x: Infinity, y: 0.5 }, { x: '0.5', y: 0.5 }, { x: 0.5 }, 'middle', { x: 0.5, y: 0.5 }].map(
        (pivot, i) => [`f${i}`, { frame: { x: i, y: 0, w: 1, h: 1 }, pivot }],
      ),
    );
    const texturePacker = parse(
      JSON.stringify({ frames, meta: { image: 'a.png' } }).replace('"x":null', '"x":1e999'),
    );
    expect(texturePacker.frames.map((frame) => frame.pivot)).toEqual([
      null,
      { x: 0.5, y: 0.5 },
      null,
      null,
      { x: 0.5, y: 0.5 },
    ]);
    expect(texturePacker.problems).toEqual([
      'Frame "f0" and 2 other frames: the pivot is not a pair of finite numbers, so they are read without a pivot.',
    ]);
    expect(parse(fixture('hexi-animals.json')).problems).toEqual([]);
  });

  it('refuses a number that is no finite number wherever a descriptor gives one (1e999, NaN, "abc")', () => {
    const json = (frame: string, extra = '') =>
      `{"frames": {"a": {"frame": ${frame}${extra}}}, "meta": {"image": "a.png"}}`;
    expect(() => parse(json('{"x": 1e999, "y": 0, "w": 1, "h": 1}'))).toThrow(/x is not a number/);
    expect(() =>
      parse(json('{"x": 0, "y": 0, "w": 1, "h": 1}', ', "sourceSize": {"w": 1e999, "h": 1}')),
    ).toThrow(/source width is not a number/);
    expect(() =>
      parse(json('{"x": 0, "y": 0, "w": 1, "h": 1}', ', "spriteSourceSize": {"x": -1e999, "y": 0}')),
    ).toThrow(/trim x is not a number/);
    expect(() =>
      parse(
        '<TextureAtlas imagePath="a.png"><SubTexture name="a" x="abc" y="0" width="4" height="4"/></TextureAtlas>',
      ),
    ).toThrow(/x is not a number/);
    expect(() =>
      parse(
        '<TextureAtlas imagePath="a.png"><SubTexture name="a" x="0" y="0" width="4" height="4" frameX="NaN" frameY="0" frameWidth="4" frameHeight="4"/></TextureAtlas>',
      ),
    ).toThrow(/frameX is not a number/);
    expect(() => parse('a.png\nsize: 8, 8\nregion\n  bounds: 0, 0, Infinity, 4\n')).toThrow(
      /bounds 3 is not a number/,
    );
    const plist = (frame: string) =>
      `<plist><dict><key>frames</key><dict><key>a</key><dict><key>frame</key><string>${frame}</string><key>offset</key><string>{0,0}</string><key>sourceSize</key><string>{4,4}</string></dict></dict><key>metadata</key><dict><key>format</key><integer>2</integer><key>textureFileName</key><string>a.png</string></dict></dict></plist>`;
    expect(() => parse(plist('{{0,0},{1e999,4}}'))).toThrow(/is not 4 numbers/);
  });

  it(`refuses an XML descriptor nested deeper than ${limits.atlas.maxDepth} elements (a plist 30,000 deep) without exhausting the stack`, () => {
    const deep = (depth: number) =>
      `<plist><dict><key>frames</key>${'<array>'.repeat(depth)}${'</array>'.repeat(depth)}</dict></plist>`;
    expect(() => parseAtlasDescriptor(deep(30_000))).toThrow(AtlasError);
    expect(() => parseAtlasDescriptor(deep(30_000))).toThrow(
      `It nests elements more than ${limits.atlas.maxDepth} deep.`,
    );
    expect(() =>
      parseAtlasDescriptor(
        `<TextureAtlas imagePath="a.png">${'<x>'.repeat(30_000)}${'</x>'.repeat(30_000)}</TextureAtlas>`,
      ),
    ).toThrow(/nests elements more than/);
    // Any other XML that deep is no descriptor, and not reported as one.
    expect(parseAtlasDescriptor(`<data>${'<x>'.repeat(30_000)}${'</x>'.repeat(30_000)}</data>`)).toBeNull();
    // A JSON nested as deep is read (JSON.parse does not recurse, nor do the parsers) and refused for what it lacks.
    expect(() =>
      parseAtlasDescriptor(
        `{"frames": ${'['.repeat(30_000)}${']'.repeat(30_000)}, "meta": {"image": "a.png"}}`,
      ),
    ).toThrow('Frame 1 has no name.');
  });

  it(`refuses more than ${limits.atlas.maxFrames} frames (100,000 named) before reading them`, () => {
    const frames = Object.fromEntries(
      Array.from({ length: 100_000 }, (_, i) => [`f${i}`, { frame: { x: 0, y: 0, w: 1, h: 1 } }]),
    );
    expect(() => parseAtlasDescriptor(JSON.stringify({ frames, meta: { image: 'a.png' } }))).toThrow(
      /100000 frames/,
    );
  });
});

describe('a descriptor tied to the game (resolution)', () => {
  const files = (list: AtlasGameFile[]) => new Map(list.map((file) => [file.path, file]));
  const descriptor = { fileId: 1, path: 'assets/sheets/hero.json', width: null, height: null };
  const sheet = (path: string, width = 64, height = 64) => ({ fileId: 2, path, width, height });
  const atlasNaming = (image: string, frame = { x: 0, y: 0, w: 8, h: 8 }) =>
    parse(JSON.stringify({ frames: { a: { frame } }, meta: { image } }));

  it('finds the image relative to the descriptor', () => {
    expect(resolveImagePath('assets/sheets/hero.json', 'hero.png')).toBe('assets/sheets/hero.png');
    expect(resolveImagePath('assets/sheets/hero.json', '../img/hero.png')).toBe('assets/img/hero.png');
    const atlas = resolveAtlas(descriptor, atlasNaming('hero.png'), files([sheet('assets/sheets/hero.png')]));
    expect(atlas.pages).toEqual([{ image: 'assets/sheets/hero.png', fileId: 2, width: 64, height: 64 }]);
    expect(atlas.descriptor).toBe('assets/sheets/hero.json');
  });

  it('refuses an image outside the game, missing, or of another size, and a frame outside its page', () => {
    expect(() => resolveAtlas(descriptor, atlasNaming('../../../etc/passwd.png'), files([]))).toThrow(
      /outside the game/,
    );
    expect(() => resolveAtlas(descriptor, atlasNaming('https://cdn.example/a.png'), files([]))).toThrow(
      /not a path inside the game/,
    );
    expect(() => resolveAtlas(descriptor, atlasNaming('gone.png'), files([]))).toThrow(
      /assets\/sheets\/gone.png is not in the game/,
    );
    expect(() =>
      resolveAtlas(
        descriptor,
        atlasNaming('hero.png', { x: 60, y: 0, w: 8, h: 8 }),
        files([sheet('assets/sheets/hero.png')]),
      ),
    ).toThrow(/lies outside assets\/sheets\/hero.png \(64×64\)/);
    const declared = parse(
      JSON.stringify({
        frames: { a: { frame: { x: 0, y: 0, w: 8, h: 8 } } },
        meta: { image: 'hero.png', size: { w: 128, h: 128 } },
      }),
    );
    expect(() => resolveAtlas(descriptor, declared, files([sheet('assets/sheets/hero.png')]))).toThrow(
      /declares .* as 128×128, but the image is 64×64/,
    );
  });
});
