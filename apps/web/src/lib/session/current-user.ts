import { tokenUserSchema, type TokenUser } from '@reskin/contract';
import { decodeJwt } from 'jose';
import { apiRequest } from '../api-client';

/** GET /user/me, reduced to the fields the session keeps (those of the token's user object). */
export async function getCurrentUser(signal?: AbortSignal): Promise<TokenUser> {
  // A refused saved token just means "logged out" at start-up, not "go to login".
  const body = await apiRequest('/user/me', { signal, logoutOnUnauthorized: false });
  return tokenUserSchema.parse(body);
}

/** The user object inside a session token (read, not verified: the server verifies it on every call). */
export function userFromToken(token: string): TokenUser {
  return tokenUserSchema.parse(decodeJwt(token).user);
}
