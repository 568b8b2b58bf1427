import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorCodes, xsrf } from '@reskin/contract';
import { forbidden } from '../lib/errors';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Double-submit XSRF protection (DESIGN.md "Users and sessions", docs/decisions/0004): a request without the
 * XSRF-TOKEN cookie or an Authorization header gets one; a state-changing request that carries the cookie must
 * echo it in X-XSRF-TOKEN.
 */
export const xsrfPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    const cookie = request.cookies[xsrf.cookie];
    if (!cookie) {
      // An API client that sends its token in the Authorization header keeps no cookies: minting one for each of
      // its requests would only cost time. The web app gets its cookie on its first request.
      if (request.headers.authorization) return;
      reply.setCookie(xsrf.cookie, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        // Behind TLS (directly, or a trusted proxy's X-Forwarded-Proto) the cookie never travels in clear.
        secure: request.protocol === 'https',
        httpOnly: false,
      });
      return;
    }
    if (safeMethods.has(request.method)) return;
    const header = request.headers[xsrf.header.toLowerCase()];
    if (typeof header !== 'string' || !same(header, cookie)) {
      throw forbidden('The X-XSRF-TOKEN header does not match the XSRF-TOKEN cookie.', errorCodes.xsrf);
    }
  });
});
