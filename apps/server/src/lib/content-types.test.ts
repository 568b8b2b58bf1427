import { describe, expect, it } from 'vitest';
import { servedAs } from './content-types';
import { isImagePath } from './game-paths';

describe('served content types', () => {
  it('serves plain files with their own type', () => {
    expect(servedAs('game.wasm')).toEqual({ contentType: 'application/wasm' });
    expect(servedAs('lib/engine.js')).toEqual({ contentType: 'text/javascript' });
    expect(servedAs('Build/game.data')).toEqual({ contentType: 'application/octet-stream' });
    expect(servedAs('README')).toEqual({ contentType: 'application/octet-stream' });
    // An extension-less name is not read as an extension.
    expect(servedAs('js')).toEqual({ contentType: 'application/octet-stream' });
  });

  it('serves pre-compressed builds with Content-Encoding and the type of the inner name', () => {
    expect(servedAs('Build/game.wasm.br')).toEqual({
      contentType: 'application/wasm',
      contentEncoding: 'br',
    });
    expect(servedAs('Build/game.data.gz')).toEqual({
      contentType: 'application/octet-stream',
      contentEncoding: 'gzip',
    });
    expect(servedAs('Build/game.framework.js.gz')).toEqual({
      contentType: 'text/javascript',
      contentEncoding: 'gzip',
    });
    expect(servedAs('Build/game.symbols.json.BR')).toEqual({
      contentType: 'application/json',
      contentEncoding: 'br',
    });
    expect(servedAs('saves/slot1.gz')).toEqual({
      contentType: 'application/octet-stream',
      contentEncoding: 'gzip',
    });
    // A dot file is a name, not an extension.
    expect(servedAs('Build/.gz')).toEqual({ contentType: 'application/octet-stream' });
  });

  it('never treats a compressed image as an image (no skeleton or watermark copies)', () => {
    expect(isImagePath('img/hero.png.gz')).toBe(false);
    expect(servedAs('img/hero.png.gz')).toEqual({ contentType: 'image/png', contentEncoding: 'gzip' });
  });
});
