import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorCodes, errorEnvelopeSchema, totalCountHeader, xsrf } from '@reskin/contract';
import { uploadRecordDeadlineMs } from './modules/stored-files/stored-files.service';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Documentation only: the parts of a multipart/form-data body, which the handler reads as a stream
     * (request.parts() or request.file()). The document shows it as the request body; nothing validates it.
     */
    multipartBody?: z.ZodObject;
    /**
     * Documentation only: the error answers particular to this route (status: when), added to the ones every
     * route of its kind gets (see `derivedErrors`).
     */
    errors?: Partial<Record<number, string>>;
    /**
     * Documentation only: the success answer is one page of a list, with the number of matching rows in the
     * X-Total-Count header (search/page.ts `sendPage`).
     */
    paged?: boolean;
  }
}

/** How a route is guarded: `onRequest: app.requireUser` or `app.requireAdmin` (plugins/auth.ts). */
type Guard = 'user' | 'admin' | undefined;

interface RouteFacts {
  method: string;
  url: string;
  guard: Guard;
  schema: NonNullable<RouteOptions['schema']>;
  rateLimited: boolean;
}

const stateChangingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error answers the document gives an operation, by what the route is. Every one of them is the shared
 * envelope (`ErrorEnvelope`, the contract's errorEnvelopeSchema); when several rules give a status, the
 * response's description names every reason.
 */
const derivedErrors: { status: number; applies: (route: RouteFacts) => boolean; description: string }[] = [
  {
    status: 400,
    applies: () => true,
    description:
      'The request is malformed: body not JSON, a filter naming an unknown column, or a value out of range (BAD_REQUEST, INVALID_JSON, INVALID_FILTER).',
  },
  {
    status: 401,
    applies: (route) => route.guard !== undefined,
    description: `No valid bearer token, or its user is gone or disabled (${errorCodes.unauthorized}).`,
  },
  {
    status: 403,
    applies: (route) => route.guard === 'admin',
    description: `Only administrators may do this (${errorCodes.forbidden}).`,
  },
  {
    status: 403,
    applies: (route) => stateChangingMethods.has(route.method),
    description: `The request carries the ${xsrf.cookie} cookie but not the same value in ${xsrf.header} (${errorCodes.xsrf}).`,
  },
  {
    status: 404,
    applies: (route) => route.url.includes(':'),
    description: `No such object, or one the caller may not see (${errorCodes.notFound}).`,
  },
  {
    status: 408,
    applies: (route) => route.schema.multipartBody !== undefined,
    description: `The upload had not recorded its files ${uploadRecordDeadlineMs / 60_000} minutes after it began; nothing was stored, send fewer files at a time (${errorCodes.uploadTooSlow}).`,
  },
  {
    status: 413,
    applies: (route) => route.schema.multipartBody !== undefined,
    description: 'A file is larger than the size limit, or the request has too many files.',
  },
  {
    status: 415,
    applies: (route) => route.schema.multipartBody !== undefined,
    description: 'The body is not multipart/form-data (NOT_MULTIPART).',
  },
  {
    status: 422,
    applies: ({ schema }) =>
      [schema.body, schema.params, schema.querystring, schema.multipartBody].some(Boolean),
    description: `The request is invalid; error.details names each field and rule (${errorCodes.validationFailed}).`,
  },
  {
    status: 429,
    applies: (route) => route.rateLimited,
    description: `Too many requests from this address; try again later (${errorCodes.rateLimited}).`,
  },
  { status: 500, applies: () => true, description: 'An unexpected error; the server log has the details.' },
  {
    status: 503,
    applies: () => true,
    description: `The database cannot be reached; the same request works once it is back (${errorCodes.databaseUnavailable}).`,
  },
];

const envelopeRef = { $ref: '#/components/schemas/ErrorEnvelope' };

/** The response headers of a paged list answer (`paged: true`); @fastify/swagger moves them out of the body schema. */
const totalCountHeaders = {
  [totalCountHeader]: {
    type: 'integer',
    minimum: 0,
    description:
      'How many rows match the where of the filter in all, whatever its limit and skip (the pager total).',
  },
};

/** The error responses of one operation: the derived ones, then the route's own `schema.errors`. */
function errorResponses(route: RouteFacts): Record<string, { description: string; content: object }> {
  const reasons = new Map<number, string[]>();
  const add = (status: number, description: string) =>
    reasons.set(status, [...(reasons.get(status) ?? []), description]);
  for (const rule of derivedErrors) if (rule.applies(route)) add(rule.status, rule.description);
  for (const [status, description] of Object.entries(route.schema.errors ?? {}))
    if (description) add(Number(status), description);
  return Object.fromEntries(
    [...reasons]
      .sort(([a], [b]) => a - b)
      .map(([status, texts]) => [
        status,
        { description: texts.join(' '), content: { 'application/json': { schema: envelopeRef } } },
      ]),
  );
}

/**
 * Registers @fastify/swagger and @fastify/swagger-ui: the OpenAPI document of every /api route at /api/docs/json
 * (the zod schemas through fastify-type-provider-zod, plus the error answers, multipart bodies and bearer
 * security derived here), and Swagger UI at /api/docs, whose "Try it out" sends the XSRF header. Register it
 * before the routes: it learns each route's guard when the route is added.
 */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  // The instance each route was added on: its requireUser and requireAdmin are the functions a guarded route
  // lists in its onRequest option (plugins/auth.ts decorates the /api scope only).
  const instances = new WeakMap<RouteOptions, FastifyInstance>();
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    instances.set(route, this);
  });
  const guardOf = (route: RouteOptions): Guard => {
    const instance = instances.get(route);
    if (!instance) return undefined;
    const hooks: unknown[] = [route.onRequest ?? []].flat();
    return hooks.includes(instance.requireAdmin)
      ? 'admin'
      : hooks.includes(instance.requireUser)
        ? 'user'
        : undefined;
  };

  const transform: SwaggerTransform = (document) => {
    const { schema, route } = document;
    if (!schema || schema.hide) return jsonSchemaTransform(document);
    // multipartBody, errors and paged are this plugin's own keys: jsonSchemaTransform gets the rest.
    const { multipartBody, errors: _errors, paged, ...zodSchema } = schema;
    const transformed = jsonSchemaTransform({
      ...document,
      schema: multipartBody
        ? { ...zodSchema, body: multipartBody, consumes: ['multipart/form-data'] }
        : zodSchema,
    });
    const guard = guardOf(route);
    const methods = [route.method].flat();
    const facts: RouteFacts = {
      method: methods.find((method) => stateChangingMethods.has(method)) ?? methods[0] ?? 'GET',
      url: route.url,
      guard,
      schema,
      rateLimited: Boolean((route.config as { rateLimit?: unknown } | undefined)?.rateLimit),
    };
    const response = { ...(transformed.schema.response as Record<string, unknown> | undefined) };
    // A route without a success schema (a download) keeps a plain success entry beside its errors (type null:
    // @fastify/swagger then describes no body).
    if (!Object.keys(response).some((status) => /^[23]/.test(status)))
      response[200] = { description: 'Success', type: 'null' };
    if (paged) response[200] = { ...(response[200] as object), headers: totalCountHeaders };
    for (const [status, errorResponse] of Object.entries(errorResponses(facts)))
      response[status] ??= errorResponse;
    return {
      url: transformed.url,
      schema: {
        ...transformed.schema,
        response,
        security: schema.security ?? (guard ? [{ bearer: [] }] : []),
      },
    };
  };

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Reskin Studio API',
        version: '0.1.0',
        description: 'Every call of SPEC §7, under /api.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        schemas: {
          ErrorEnvelope: z.toJSONSchema(errorEnvelopeSchema, {
            target: 'openapi-3.0',
            io: 'output',
          }) as object,
        },
      },
    },
    transform,
  });

  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // BaseLayout leaves out the top bar, whose logo is an SVG with an inline <style> the app's CSP refuses.
    uiConfig: { layout: 'BaseLayout', persistAuthorization: true },
    theme: { title: 'Reskin Studio API', js: [{ filename: 'xsrf.js', content: xsrfScript }] },
  });
});

/**
 * Runs on the docs page before Swagger UI starts (swagger-initializer.js calls SwaggerUIBundle on load): every
 * request "Try it out" sends to this origin echoes the XSRF cookie in the XSRF header, as the web app does, so
 * POST, PUT, PATCH and DELETE pass plugins/xsrf.ts once the browser has the cookie.
 */
const xsrfScript = `(function () {
  'use strict';
  var cookieName = ${JSON.stringify(xsrf.cookie)};
  var headerName = ${JSON.stringify(xsrf.header)};
  function withXsrfHeader(request) {
    var cookie = document.cookie.split('; ').find(function (entry) { return entry.indexOf(cookieName + '=') === 0; });
    if (cookie && new URL(request.url, window.location.href).origin === window.location.origin) {
      request.headers[headerName] = decodeURIComponent(cookie.slice(cookieName.length + 1));
    }
    return request;
  }
  window.SwaggerUIBundle = new Proxy(window.SwaggerUIBundle, {
    apply: function (create, self, args) {
      return create.call(self, Object.assign({}, args[0], { requestInterceptor: withXsrfHeader }));
    },
  });
})();
`;
