import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDb, type TestApp } from './helpers';

describe(`[API-1] the app on ${testDb}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers GET /api/config with the product name and the play origin', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ productName: 'Reskin Studio', playOrigin: 'http://play.test' });
  });

  it('answers an unknown API route with the 404 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { statusCode: 404, name: 'NotFoundError', code: 'NOT_FOUND' } });
  });
});
