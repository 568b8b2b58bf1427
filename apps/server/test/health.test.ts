import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDb, type TestApp } from './helpers';

describe(`[API-1] the app on ${testDb}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers GET /api/config with the product name, the play origin, whether mail is on (off without SMTP_URL) and the per-file upload limit', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      productName: 'Reskin Studio',
      playOrigin: 'http://play.test',
      mail: false,
      maxFileSizeBytes: 50 * 1024 * 1024,
    });
  });

  it('answers an unknown API route with the 404 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      error: { statusCode: 404, name: 'NotFoundError', code: 'NOT_FOUND' },
    });
  });
});

// The answers with the database gone are in database-outage.test.ts, which stops a cluster of its own.
describe(`health probes on ${testDb}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('GET /api/health answers 200 without a login', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/health/ready answers 200 when the database and storage work, and leaves no probe behind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      checks: { database: 'ok', storage: 'ok', space: 'ok' },
    });
    expect(readdirSync(join(t.config.dataDir, 'files', 'health-probes'))).toEqual([]);
  });

  it('GET /api/health/ready answers 503 naming storage when nothing can be written there', async () => {
    // Root ignores file modes, so make the storage folder impossible instead: a plain file in its place.
    const files = join(t.config.dataDir, 'files');
    rmSync(files, { recursive: true, force: true });
    writeFileSync(files, 'not a folder');
    try {
      const broken = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(broken.statusCode).toBe(503);
      expect(broken.json()).toMatchObject({
        status: 'unavailable',
        checks: { database: 'ok', storage: 'unavailable' },
      });
      // Liveness checks nothing but the process.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      rmSync(files, { force: true });
    }
    const repaired = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(repaired.statusCode).toBe(200);
  });

  it('documents both probes in the OpenAPI document under the health tag, ready with its 503 report', async () => {
    type Operation = {
      tags: string[];
      security: unknown[];
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, { get: Operation }>;
    }>();
    const live = document.paths['/api/health']!.get;
    const ready = document.paths['/api/health/ready']!.get;
    expect(live.tags).toEqual(['health']);
    expect(live.security).toEqual([]);
    expect(ready.tags).toEqual(['health']);
    expect(ready.responses['503']?.content?.['application/json']?.schema).toMatchObject({
      properties: { status: {}, checks: { properties: { database: {}, storage: {} } } },
    });
  });
});
