import { z } from 'zod';

/**
 * The largest id either database holds: ids are 32-bit integers (PostgreSQL `integer`, the same bound on SQLite so
 * both behave alike).
 */
export const maxId = 2147483647;

/** The most digits an id is written with (maxId has 10). */
const maxIdDigits = String(maxId).length;

/**
 * An id as written in a URL (a path segment, or `?gameId=` in the web app), or undefined when the text is anything
 * else: digits only, no sign, no leading zero, no spaces, no exponent or hex, from 1 to maxId. Each
 * number has exactly one spelling, so `/user/delete/%201`, `/0x10`, `/1e3` and `/0002` name no user instead of
 * users 1, 16, 1000 and 2 (what Number() or a coercing schema makes of them).
 */
export function parseId(text: string | null | undefined): number | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > maxIdDigits) return undefined;
  if (text[0] === '0') return undefined;
  let value = 0;
  for (const char of text) {
    const digit = char.charCodeAt(0) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value <= maxId ? value : undefined;
}

/** The message of an id parameter that parseId refuses. */
export const invalidIdMessage = `An id is a whole number from 1 to ${maxId}, written with digits only.`;

/**
 * An id in a request path (`/user/delete/{id}`, `/games/{id}/files/{fileId}`, ...): text that parseId accepts,
 * answered as its number. Every route's path ids use this one schema; anything else answers 400 VALIDATION_FAILED.
 */
export const pathIdSchema = z
  .string()
  .transform((text, ctx) => {
    const id = parseId(text);
    if (id === undefined) ctx.issues.push({ code: 'custom', message: invalidIdMessage, input: text });
    return id ?? z.NEVER;
  })
  .describe(`An id: 1 to ${maxId}, digits only (no sign, no leading zero).`);

/** An id in a JSON body or filter: a whole number from 1 to maxId (a string, even "12", is not one). */
export const idSchema = z.number().int().positive().max(maxId);

/** The path parameters of a route about one thing: `{id}`. */
export const idParamSchema = z.object({ id: pathIdSchema });
