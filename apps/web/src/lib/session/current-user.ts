import { tokenUserSchema, type TokenUser } from '@reskin/contract';
import { decodeJwt } from 'jose';
import { getMe } from '../../api/account';

/** GET /user/me, reduced to the fields the session keeps (those of the token's user object). */
export async function getCurrentUser(signal?: AbortSignal): Promise<TokenUser> {
  // A refused saved token just means "logged out" at start-up, not "go to login".
  return tokenUserSchema.parse(await getMe({ signal, logoutOnUnauthorized: false }));
}

/** The user object inside a session token (read, not verified: the server verifies it on every call). */
export function userFromToken(token: string): TokenUser {
  return tokenUserSchema.parse(decodeJwt(token).user);
}
