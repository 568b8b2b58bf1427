import { describe, expect, it } from 'vitest';
import { parseAtlasDescriptor } from './atlas-parsers';
import { resolveAtlas } from './atlas-resolution';
import { gwtAssetNames } from './gwt-assets';

/** A GWT preloader's list in the format libGDX writes (type:name:stored name:size:mime type:flag). */
const list = [
  'd:assets:assets:0:application/unknown:1',
  't:Hero.atlas:Hero-82fd582c9a2e802234606f046610a53e.atlas:220:application/unknown:1',
  'i:Hero.png:Hero-6d35d6582def10876c722c3b7c85d897.png:4429:image/png:1',
  'i:ui/Skin Sheet.png:ui/Skin Sheet-0a1b2c.png:100:image/png:1',
  'i:../../escape.png:escape-1.png:1:image/png:1',
  'not a line of the list',
  '',
].join('\n');

describe('a libGDX GWT build: its assets under hashed names (assets.txt)', () => {
  it('maps each asset name to the stored file, relative to the folder of assets.txt; folders and names that leave the game are not mapped', () => {
    expect([...gwtAssetNames('assets/assets.txt', list)]).toEqual([
      ['assets/Hero.atlas', 'assets/Hero-82fd582c9a2e802234606f046610a53e.atlas'],
      ['assets/Hero.png', 'assets/Hero-6d35d6582def10876c722c3b7c85d897.png'],
      ['assets/ui/Skin Sheet.png', 'assets/ui/Skin Sheet-0a1b2c.png'],
    ]);
  });

  it("a descriptor naming its sheet as the game asks for it finds the stored file, and names the missing sheet by the descriptor's name", () => {
    const descriptor = {
      fileId: 1,
      path: 'assets/Hero-82fd582c9a2e802234606f046610a53e.atlas',
      width: null,
      height: null,
    };
    const parsed = parseAtlasDescriptor(
      ['Hero.png', 'size:64,32', 'repeat:none', 'hero run', 'bounds:0,0,16,16', ''].join('\n'),
    )!;
    const sheet = {
      fileId: 2,
      path: 'assets/Hero-6d35d6582def10876c722c3b7c85d897.png',
      width: 64,
      height: 32,
    };
    const atlas = resolveAtlas(
      descriptor,
      parsed,
      new Map([[sheet.path, sheet]]),
      gwtAssetNames('assets/assets.txt', list),
    );
    expect(atlas.pages).toEqual([{ image: sheet.path, fileId: 2, width: 64, height: 32 }]);
    expect(() =>
      resolveAtlas(descriptor, parsed, new Map(), gwtAssetNames('assets/assets.txt', list)),
    ).toThrow('Its image assets/Hero.png is not in the game.');
  });
});
