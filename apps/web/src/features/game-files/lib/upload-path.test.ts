import { describe, expect, it } from 'vitest';
import { uploadPathOf } from '../../../lib/upload-path';

function fileWith(name: string, extra: Record<string, string>): File {
  const file = new File(['x'], name);
  for (const [key, value] of Object.entries(extra)) Object.defineProperty(file, key, { value });
  return file;
}

describe('uploadPathOf', () => {
  it('keeps the folder path of a folder pick', () => {
    expect(uploadPathOf(fileWith('index.html', { webkitRelativePath: 'star-catcher/game/index.html' }))).toBe(
      'star-catcher/game/index.html',
    );
  });

  it("removes the leading '/' of a dropped folder's entries and the './' of a dropped file", () => {
    expect(
      uploadPathOf(fileWith('a.png', { path: '/game/img/a.png', relativePath: '/game/img/a.png' })),
    ).toBe('game/img/a.png');
    expect(uploadPathOf(fileWith('a.png', { path: './a.png', relativePath: './a.png' }))).toBe('a.png');
  });

  it('falls back to the file name', () => {
    expect(uploadPathOf(new File(['x'], 'main.js'))).toBe('main.js');
  });
});
