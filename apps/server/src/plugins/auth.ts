import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, type User } from '@reskin/contract';
import { forbidden, unauthorized } from '../lib/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, re-read from the database on every request; null when anonymous. */
    user: User | null;
  }
  interface FastifyInstance {
    /** onRequest hook: 401 unless a valid bearer token of an active user came with the request. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook: 401 when anonymous, 403 unless the user's role may 'admin.area' (permissions.ts). */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
  }
}

export interface AuthOptions {
  /** Resolves a bearer token to its (still existing, still active) user. */
  authenticate: (token: string) => Promise<User | undefined>;
}

/** The API reads only the bearer token (no auth cookie): DESIGN.md "Users and sessions". */
export const authPlugin = fp(async (app: FastifyInstance, { authenticate }: AuthOptions) => {
  app.decorateRequest('user', null);

  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (match?.[1]) request.user = (await authenticate(match[1])) ?? null;
  });

  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.user) throw unauthorized();
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (!request.user) throw unauthorized();
    if (!can(request.user.roleTypeId, 'admin.area')) throw forbidden('Only administrators may do this.');
  });
});

/** The logged-in user of a request that passed requireUser or requireAdmin. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}
