import { describe, expect, it } from 'vitest';
import { isCompressibleType, servedAs } from './content-types';
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

describe('isCompressibleType: which served types the play origin and the version zip compress', () => {
  it('compresses what mime-db marks compressible and the uncompressed formats games ship', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'application/javascript',
      'application/wasm',
      'image/svg+xml',
      'image/bmp',
      'model/gltf+json',
      'application/octet-stream',
      'audio/wav',
      'image/tiff',
      'model/obj',
    ])
      expect(isCompressibleType(type), type).toBe(true);
  });

  it('leaves compressed media as it is', () => {
    for (const type of [
      'image/png',
      'image/jpeg',
      'image/webp',
      'audio/ogg',
      'audio/mpeg',
      'font/woff2',
      'application/zip',
    ])
      expect(isCompressibleType(type), type).toBe(false);
  });
});
