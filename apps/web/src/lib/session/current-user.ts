import type { TokenUser, User } from '@reskin/contract';
import { decodeJwt } from 'jose';
import { apiRequest, type RequestOptions } from '../api-client';

/**
 * GET /user/me as the server answers it. The session's start-up check runs on the landing page, which loads no
 * schema library, so the answer is not checked again here: the server writes it through the
 * contract's userSchema. The account screen checks it with that schema (api/account.ts).
 */
export async function fetchMe(options?: RequestOptions): Promise<User> {
  return (await apiRequest('/user/me', options)) as User;
}

/** The fields of a user the session keeps (those of the token's user object). */
function tokenUser({ id, username, email, roleTypeId }: TokenUser): TokenUser {
  return { id, username, email, roleTypeId };
}

/** GET /user/me, reduced to the fields the session keeps. */
export async function getCurrentUser(signal?: AbortSignal): Promise<TokenUser> {
  // A refused saved token has ended like any session (SES-4): the session's 401 handler goes to /login and says so.
  return tokenUser(await fetchMe({ signal }));
}

/** The user object inside a session token (read, not verified: the server verifies it on every call). */
export function userFromToken(token: string): TokenUser {
  return tokenUser(decodeJwt(token).user as TokenUser);
}
