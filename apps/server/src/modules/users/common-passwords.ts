import { lazyPackage } from '../../lib/lazy-package';

const zxcvbnCommon = lazyPackage<typeof import('@zxcvbn-ts/language-common')>('@zxcvbn-ts/language-common');

/**
 * The most common and breached passwords (NIST SP 800-63B 3.1.1.2, OWASP ASVS 2.1.7): the 49,233 of
 * zxcvbn-ts's common list (@zxcvbn-ts/language-common: passwords ranked by how often they appear in leaked
 * password corpora, lower-case; 17,950 of them have the 8 characters SPEC's minimum asks for). Shipped in the
 * package: no network call. Loaded on first use (the package decompresses it as it loads: about 50 ms, which start-up
 * no longer pays), then kept.
 */
let common: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(zxcvbnCommon().dictionary['passwords-common']);
  return common;
}

/** One character typed again and again ("        ", "aaaaaaaa"): no list names them all. */
function isOneCharacterRepeated(password: string): boolean {
  const [first, ...rest] = password;
  return first !== undefined && rest.every((char) => char === first);
}

/**
 * Whether a new password is too easy to guess: on the common list in any case and with any surrounding spaces
 * ("Password1", " 12345678 "), or one character repeated. Only new passwords are checked (register, Add User,
 * a change of one's own); logins, the seeded demo accounts and ADMIN_PASSWORD are not.
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase()) || isOneCharacterRepeated(password);
}
