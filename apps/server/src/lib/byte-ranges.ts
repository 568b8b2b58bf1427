import type { ByteRange } from '../storage/storage';

/**
 * Reads an HTTP `Range` header (RFC 9110 §14) against an object of `size` bytes, as audio and video elements
 * send it to seek: `bytes=500-999`, `bytes=500-` (to the end) or `bytes=-500` (the last 500). Answers the range
 * to send (206), 'unsatisfiable' when it lies wholly past the end (416), or undefined to send the whole object
 * (200): no header, another unit, several ranges (allowed to be ignored), or a header that does not parse.
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=\s*(\d*)-(\d*)\s*$/.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix: the last `last` bytes (all of them when the object is shorter).
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
