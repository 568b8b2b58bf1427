import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';

/** What a revalidated answer lets the browser do: keep it for this user only, and ask again before each use. */
export const revalidatedCacheControl = 'private, no-cache';

/**
 * Registers `routes` in a scope of their own whose answers a browser revalidates instead of downloading again
 * (decision 0063): each carries a weak ETag of its body (@fastify/etag: weak, since compression gives the same body
 * other bytes) and a request whose If-None-Match names it gets a 304 without the body. The ETag is taken of the
 * answer the caller would get, after its checks, so a 304 only ever confirms this caller's own answer. Successful
 * answers are `private, no-cache` (a browser may keep them, a shared cache never); refusals keep `no-store`.
 * Only for GETs without side effects: the hook answers whatever the route returned.
 */
export async function revalidatedRoutes(
  app: FastifyInstance,
  routes: (scope: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(etag, { weak: true });
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode === 200 || reply.statusCode === 304)
        reply.header('Cache-Control', revalidatedCacheControl);
      return payload;
    });
    await routes(scope);
  });
}
