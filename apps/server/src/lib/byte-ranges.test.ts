import { describe, expect, it } from 'vitest';
import { parseByteRange } from './byte-ranges';

describe('parseByteRange (HTTP Range for seeking)', () => {
  it('reads a closed, an open and a suffix range within the object', () => {
    expect(parseByteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(parseByteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
  });

  it('clips a range that runs past the end', () => {
    expect(parseByteRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
  });

  it('is unsatisfiable when the range starts past the end, asks for no bytes, ends before it starts or is a suffix longer than the object (range-parser, as @fastify/static answers: decision 0057)', () => {
    expect(parseByteRange('bytes=-5000', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=5-2', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=2000-3000', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('sends the whole object for no header, another unit, several ranges or nonsense', () => {
    for (const header of [undefined, 'items=0-1', 'bytes=0-1,5-6', 'bytes=-', 'bytes=abc', '']) {
      expect(parseByteRange(header, 1000)).toBeUndefined();
    }
  });
});
