import { audioFormat, imageFormats, validationMessages as m } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import {
  imageSizeRefusal,
  isAudioFile,
  isImageFile,
  matchFiles,
  replaceableKind,
  singleDropRefusal,
} from './drop-checks';

const file = (fullPath: string, type = 'image/png') => ({
  name: fullPath.slice(fullPath.lastIndexOf('/') + 1),
  fullPath,
  type,
});
const targets = [
  { fileId: 1, path: 'game/img/bird.png' },
  { fileId: 2, path: 'game/img/sky.png' },
  { fileId: 3, path: 'game/ui/icon.png' },
  { fileId: 4, path: 'game/menu/icon.png' },
];

describe('matchFiles [WB-7][WB-9]', () => {
  it('matches by name when exactly one game file has it', () => {
    const [match] = matchFiles([file('bird.png')], targets);
    expect(match).toEqual({ file: file('bird.png'), target: targets[0] });
  });

  it('matches by full path, or by the end of one', () => {
    expect(matchFiles([file('game/ui/icon.png')], targets)[0]).toMatchObject({ target: targets[2] });
    expect(matchFiles([file('menu/icon.png')], targets)[0]).toMatchObject({ target: targets[3] });
  });

  it('refuses a name two game files share, and a second file for the same game file', () => {
    expect(matchFiles([file('icon.png')], targets)[0]).toMatchObject({ refusal: m.multipleSameName });
    const [first, second] = matchFiles([file('bird.png'), file('other/bird.png')], targets);
    expect(first).toMatchObject({ target: targets[0] });
    expect(second).toMatchObject({ refusal: m.multipleSameName });
  });

  it('refuses a file no game file matches', () => {
    expect(matchFiles([file('cat.png')], targets)[0]).toMatchObject({ refusal: m.noMatchingFile });
  });
});

describe('single drops and sizes [WB-6][WB-10]', () => {
  it('allows exactly one file per drop target', () => {
    expect(singleDropRefusal(1)).toBeNull();
    expect(singleDropRefusal(2)).toBe('Multiple Files are not allowed!');
    expect(singleDropRefusal(0)).toBe('Multiple Files are not allowed!');
  });

  it('words a size mismatch as the spec does', () => {
    expect(imageSizeRefusal({ width: 360, height: 240 }, { width: 360, height: 240 })).toBeNull();
    expect(imageSizeRefusal({ width: 360, height: 240 }, { width: 100, height: 50 })).toBe(
      'Original Size 360 x 240 Loaded Size 100 x 50',
    );
  });

  it('knows audio and images by MIME type, or by extension when the type is empty', () => {
    expect(isAudioFile({ name: 'a.bin', type: 'audio/wav' })).toBe(true);
    expect(isAudioFile({ name: 'a.ogg', type: '' })).toBe(true);
    expect(isAudioFile({ name: 'a.png', type: 'image/png' })).toBe(false);
    expect(isImageFile({ name: 'a.webp', type: '' })).toBe(true);
    expect(isImageFile({ name: 'a.wav', type: 'audio/wav' })).toBe(false);
  });
});

describe("the contract's file kinds decide what drops and what is replaceable", () => {
  it('takes every image format of the contract, by MIME type and by extension', () => {
    for (const format of Object.values(imageFormats)) {
      for (const type of format.mimeTypes) expect(isImageFile({ name: 'x.bin', type }), type).toBe(true);
      for (const ext of format.extensions) {
        expect(isImageFile({ name: `hero.${ext}`, type: '' }), ext).toBe(true);
        expect(isImageFile({ name: `HERO.${ext.toUpperCase()}`, type: '' }), ext).toBe(true);
      }
    }
  });

  it('refuses images the server does not take, and files that only look like images', () => {
    expect(isImageFile({ name: 'scan.tiff', type: 'image/tiff' })).toBe(false);
    expect(isImageFile({ name: 'photo.heic', type: '' })).toBe(false);
    expect(isImageFile({ name: 'hero.png.gz', type: '' })).toBe(false);
    expect(isImageFile({ name: 'png', type: '' })).toBe(false);
  });

  it('takes every audio extension of the contract', () => {
    for (const ext of audioFormat.extensions)
      expect(isAudioFile({ name: `jump.${ext}`, type: '' }), ext).toBe(true);
    for (const type of audioFormat.mimeTypes) expect(isAudioFile({ name: 'x.bin', type }), type).toBe(true);
    expect(isAudioFile({ name: 'song.mid', type: '' })).toBe(false);
  });

  it('offers a game file for replacement only when the server treats it as an image (with a size) or a sound', () => {
    expect(replaceableKind({ path: 'img/hero.bmp', width: 32 })).toBe('image');
    expect(replaceableKind({ path: 'favicon.ico', width: 16 })).toBe('image');
    expect(replaceableKind({ path: 'img/logo.svg', width: 120 })).toBe('image');
    // An SVG web font: an image's name, but the server found no pixel size.
    expect(replaceableKind({ path: 'fonts/gamefont.svg', width: null })).toBeNull();
    expect(replaceableKind({ path: 'sfx/jump.wav', width: null })).toBe('audio');
    expect(replaceableKind({ path: 'img/hero.tiff', width: null })).toBeNull();
    expect(replaceableKind({ path: 'main.js', width: null })).toBeNull();
  });
});
