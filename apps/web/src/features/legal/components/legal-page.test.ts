import { describe, expect, it } from 'vitest';
import { paragraphsOf } from './legal-page';

describe('paragraphsOf', () => {
  it('splits plain text at blank lines and keeps single line breaks inside a paragraph', () => {
    expect(paragraphsOf('First line\nsame paragraph\n\n\nSecond\r\n  \r\nThird\n')).toEqual([
      'First line\nsame paragraph',
      'Second',
      'Third',
    ]);
  });

  it('answers no paragraph for blank text', () => {
    expect(paragraphsOf(' \n\n ')).toEqual([]);
  });
});
