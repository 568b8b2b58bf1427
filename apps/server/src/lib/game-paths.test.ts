import { describe, expect, it } from 'vitest';
import { InvalidPathError, extensionOf, normaliseGamePath } from './game-paths';

describe('game file paths', () => {
  it('keeps folder paths and normalises harmless variations', () => {
    expect(normaliseGamePath('assets/img/bird.png')).toBe('assets/img/bird.png');
    expect(normaliseGamePath('./assets//img/./bird.png')).toBe('assets/img/bird.png');
    expect(normaliseGamePath(' game/index.html ')).toBe('game/index.html');
    // Decomposed and composed forms of "é" become one path.
    expect(normaliseGamePath('caf\u0065\u0301/b.png')).toBe('caf\u00e9/b.png');
    expect(normaliseGamePath('日本語/スプライト.png')).toBe('日本語/スプライト.png');
  });

  it('refuses paths that could leave the game or mean different things elsewhere', () => {
    for (const bad of [
      '../x.png',
      'a/../../x.png',
      'a/..',
      '/etc/passwd',
      'C:/x.png',
      'c:x.png',
      'a\\b.png',
      'a\0b.png',
      '',
      '   ',
      './',
      'a/\u0007.png',
    ]) {
      expect(() => normaliseGamePath(bad), JSON.stringify(bad)).toThrow(InvalidPathError);
    }
    expect(() => normaliseGamePath(`${'a'.repeat(501)}.png`)).toThrow(InvalidPathError);
  });

  it('reads extensions case-insensitively', () => {
    expect(extensionOf('A/B.PNG')).toBe('png');
    expect(extensionOf('noext')).toBe('');
  });
});
