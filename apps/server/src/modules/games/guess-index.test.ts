import { describe, expect, it } from 'vitest';
import { guessIndex } from './guess-index';

describe('guessIndex', () => {
  it('takes the shallowest index.html, then the first by path', () => {
    expect(guessIndex(['game/index.html', 'docs/a/index.html', 'index.html'])).toBe('index.html');
    expect(guessIndex(['b/index.html', 'a/INDEX.HTML', 'a/b/index.html'])).toBe('a/INDEX.HTML');
  });

  it('else the only .html file, and nothing when the choice is not clear', () => {
    expect(guessIndex(['play.html', 'main.js'])).toBe('play.html');
    expect(guessIndex(['a.html', 'b.htm'])).toBeUndefined();
    expect(guessIndex(['main.js', 'index.html.bak'])).toBeUndefined();
    expect(guessIndex([])).toBeUndefined();
  });
});
