import rangeParser from 'range-parser';
import type { ByteRange } from '../storage/storage';

/**
 * Reads an HTTP `Range` header (RFC 9110 §14) against an object of `size` bytes, as audio and video elements
 * send it to seek: `bytes=500-999`, `bytes=500-` (to the end) or `bytes=-500` (the last 500). Answers the range
 * to send (206), 'unsatisfiable' when no byte of it lies in the object (416), or undefined to send the whole
 * object (200): no header, another unit, several ranges (allowed to be ignored), or a header that does not parse.
 * The parsing is range-parser's, as @fastify/static's for the web app's own files (decision 0057).
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined || !header.startsWith('bytes=')) return undefined;
  const ranges = rangeParser(size, header);
  if (ranges === -2) return undefined;
  if (ranges === -1) return 'unsatisfiable';
  const [only] = ranges;
  return ranges.length === 1 && only ? { start: only.start, end: only.end } : undefined;
}
