/**
 * Characters that make one text look like another or hide part of it (input hardening). One
 * definition for the server's checks and the web forms (through the schemas in users.ts, games.ts, versions.ts).
 */

/** C0 and C1 control characters, DEL included (newlines, NUL, U+0085, U+009B ...). */
// eslint-disable-next-line no-control-regex
export const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

/** Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which reorder the text on screen. */
export const bidiControls = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * Invisible and look-alike blank characters: no-break and other non-ASCII spaces (U+00A0, U+2000-U+200A, U+202F,
 * U+205F, U+3000), zero-width characters and direction marks (U+200B-U+200F), line/paragraph separators, the
 * word joiner and invisible operators (U+2060-U+2064), the BOM (U+FEFF), the soft hyphen, combining grapheme
 * joiner, Arabic letter mark, Hangul fillers, Khmer inherent vowels and Mongolian vowel separator (the combining
 * ones outside the character class, which would otherwise combine with their neighbour).
 */
export const invisibleCharacters =
  /[\u00a0\u00ad\u061c\u115f\u1160\u180e\u2000-\u200f\u2028\u2029\u202f\u205f-\u2064\u206a-\u206f\u3000\u3164\ufeff\uffa0]|\u034f|\u17b4|\u17b5/;

/** A name or path shows as what it is: no control characters and no bidi overrides (game, version, person names). */
export function isSafeName(text: string): boolean {
  return !controlCharacters.test(text) && !bidiControls.test(text);
}

/** An identity (username, email) has no control, bidi or invisible characters, so two cannot look alike. */
export function isSafeIdentity(text: string): boolean {
  return isSafeName(text) && !invisibleCharacters.test(text);
}
