import { describe, expect, it } from 'vitest';
import { fileUrl } from './play-file-url';

const paths = {
  rootPath: 'http://play.test/p/tokUser/',
  orjFile: 'http://play.test/p/tokUser/game/index%20page.html',
};

describe('fileUrl', () => {
  it("puts the encoded path under the user view's root", () => {
    expect(fileUrl(paths, paths.orjFile, 'assets/my image.png')).toBe(
      'http://play.test/p/tokUser/assets/my%20image.png',
    );
  });

  it("uses another view's root by stripping the same index path", () => {
    const original = 'http://play.test/p/tokOriginal/game/index%20page.html';
    expect(fileUrl(paths, original, 'a/b#c.png', '2024-01-01T00:00:00.000Z')).toBe(
      'http://play.test/p/tokOriginal/a/b%23c.png?t=2024-01-01T00%3A00%3A00.000Z',
    );
  });
});
