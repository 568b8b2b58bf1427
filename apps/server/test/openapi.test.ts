import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { RoleType, xsrf } from '@reskin/contract';
import { call, createTestApp, createUser, errorOf, testDb, type TestApp, type TestUser } from './helpers';

interface MediaType {
  schema?: { $ref?: string; type?: string; properties?: Record<string, SchemaObject>; required?: string[] };
}
interface SchemaObject {
  type?: string;
  format?: string;
  items?: SchemaObject;
}
interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, { properties?: Record<string, unknown> }> }>;
  };
}

const envelopeRef = '#/components/schemas/ErrorEnvelope';

/** Calls that need no login. Any other operation must document and answer 401 for an anonymous caller. */
const publicOperations = [
  'GET /api/config',
  'GET /api/health',
  'GET /api/health/ready',
  // METRICS_TOKEN's own bearer (decision 0031), not a session: 404 without it.
  'GET /api/metrics',
  'POST /api/user/login',
  'POST /api/user/signup',
  // Mail: the mailed links' token is the credential.
  'POST /api/user/forgot-password',
  'POST /api/user/reset-password',
  'POST /api/user/verify-email',
  'GET /api/legal/{document}',
  // Downloads: the bearer token or a ticket in the query string; neither is a 404, like an unknown id.
  'GET /api/games/{id}/psd-files/{helperId}',
  'GET /api/files/{id}/{gameId}/files.zip',
  // the history's entries: header or ticket, like the zip
  'GET /api/game-versions/{versionId}/files/{fileId}/history/{entryId}/content',
  // image previews (decision 0038): the signed grant in the path is the credential (<img> sends no header)
  'GET /api/previews/{grant}/{name}',
];

const uploads = [
  '/api/game/upload/{id}',
  '/api/games/{id}/psd-files',
  '/api/game-version/upload/{versionId}/{fileId}',
];

describe(`OpenAPI document and Swagger UI on ${testDb}`, () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let operations: { key: string; method: string; path: string; operation: Operation }[];
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t, RoleType.User);
    const response = await call(t, 'GET', '/api/docs/json');
    expect(response.statusCode).toBe(200);
    document = response.json<OpenApiDocument>();
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operation,
      })),
    );
  });
  afterAll(async () => t?.close());

  /** A request to the operation with 1 for every path parameter and no body. */
  function request(method: string, path: string, token?: string) {
    return call(t, method as NonNullable<InjectOptions['method']>, path.replace(/\{[^}]+\}/g, '1'), {
      token,
    });
  }

  it('[API-1] every path is under /api and none is the docs UI or the web app', () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const path of Object.keys(document.paths)) {
      expect(path).toMatch(/^\/api\//);
      expect(path).not.toMatch(/^\/api\/docs/);
    }
  });

  it('[API-1] every operation documents its 4xx and 500 answers as the one shared ErrorEnvelope', () => {
    const envelope = document.components.schemas.ErrorEnvelope;
    expect(Object.keys(envelope?.properties?.error?.properties ?? {})).toEqual([
      'statusCode',
      'name',
      'message',
      'code',
      'details',
      'retryAfter',
    ]);
    for (const { key, operation } of operations) {
      const errors = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.filter(([status]) => status.startsWith('4')).length, key).toBeGreaterThan(0);
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['400', '500', '503']));
      for (const [status, response] of errors) {
        // The readiness probe answers its 503 with its own status report, not the envelope.
        if (key === 'GET /api/health/ready' && status === '503') continue;
        expect(response.content?.['application/json']?.schema?.$ref, `${key} ${status}`).toBe(envelopeRef);
        expect(response.description, `${key} ${status}`).not.toBe('Default Response');
      }
    }
  });

  it('[API-1] the error answers follow from the route: input 422, ids in the path 404, rate limits 429', () => {
    const responses = (key: string) =>
      Object.keys(operations.find((o) => o.key === key)?.operation.responses ?? {});
    expect(responses('POST /api/user/login')).toEqual(expect.arrayContaining(['401', '403', '422', '429']));
    expect(responses('GET /api/user/me')).not.toContain('422');
    expect(responses('GET /api/user/me')).not.toContain('404');
    expect(responses('DELETE /api/games/{id}')).toEqual(expect.arrayContaining(['401', '403', '404', '422']));
    expect(responses('POST /api/game-versions')).toContain('409');
    expect(responses('POST /api/game-version/upload/{versionId}/{fileId}')).toEqual(
      expect.arrayContaining(['413', '415', '423']),
    );
  });

  it('[API-7] every operation but the public ones needs the bearer token: documented, and 401 for an anonymous caller', async () => {
    for (const { key, method, path, operation } of operations) {
      if (publicOperations.includes(key)) {
        expect(operation.security ?? [], key).not.toEqual([{ bearer: [] }]);
        continue;
      }
      expect(operation.security, key).toEqual([{ bearer: [] }]);
      expect(Object.keys(operation.responses), key).toContain('401');
      const response = await request(method, path);
      expect(response.statusCode, `${key}: ${response.body}`).toBe(401);
    }
    expect(operations.map((o) => o.key)).toEqual(expect.arrayContaining(publicOperations));
  });

  it('[API-7] admin-only operations document the 403 a regular user gets; reads without a documented 403 never answer one', async () => {
    let adminOnly = 0;
    for (const { key, method, path, operation } of operations) {
      if (publicOperations.includes(key)) continue;
      const forbidden = operation.responses['403']?.description ?? '';
      if (forbidden.includes('Only administrators')) {
        adminOnly += 1;
        // The guard refuses before the handler runs, so this changes nothing.
        const response = await request(method, path, user.token);
        expect(response.statusCode, `${key}: ${response.body}`).toBe(403);
        expect(errorOf(response).code).toBe('FORBIDDEN');
      } else if (method === 'GET' && !forbidden) {
        const response = await request(method, path, user.token);
        expect(response.statusCode, `${key}: ${response.body}`).not.toBe(403);
      }
    }
    expect(adminOnly).toBeGreaterThan(20);
  });

  it('[API-5] the upload operations describe their multipart/form-data parts', () => {
    for (const path of uploads) {
      const content = document.paths[path]?.post?.requestBody?.content ?? {};
      expect(Object.keys(content), path).toEqual(['multipart/form-data']);
      const properties = content['multipart/form-data']?.schema?.properties ?? {};
      expect(Object.keys(properties).sort(), path).toEqual(['file', 'fullPath']);
      const file = properties.file;
      const binary = file?.type === 'array' ? file.items : file;
      expect(binary, path).toMatchObject({ type: 'string', format: 'binary' });
      expect(content['multipart/form-data']?.schema?.required, path).toEqual(['file']);
    }
    // Many files per request (a fullPath before each) for the game and helper uploads, one for a version.
    expect(
      document.paths['/api/game/upload/{id}']?.post?.requestBody?.content['multipart/form-data']?.schema
        ?.properties?.file?.type,
    ).toBe('array');
    expect(
      document.paths['/api/game-version/upload/{versionId}/{fileId}']?.post?.requestBody?.content[
        'multipart/form-data'
      ]?.schema?.properties?.file?.type,
    ).toBe('string');
  });

  it('[API-1] the docs page runs under the app CSP and loads the script that sends the XSRF header', async () => {
    const page = await call(t, 'GET', '/api/docs');
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests');
    const script = page.body.match(/src="([^"]*\/theme\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const js = await call(t, 'GET', script ?? '');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.body).toContain(JSON.stringify(xsrf.cookie));
    expect(js.body).toContain(JSON.stringify(xsrf.header));
  });
});
