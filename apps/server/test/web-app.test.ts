import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, testDb, type TestApp } from './helpers';

// A built web app as scripts/build.mjs leaves it: index.html, content-hashed assets with .br and .gz copies.
const script = `console.log(${JSON.stringify('the app '.repeat(400))});`;

function writeDist(dir: string): void {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="/assets/index-AbC123.js"></script><div id="root"></div>',
  );
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), script);
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.br'), brotliCompressSync(script));
  writeFileSync(join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync(script));
}

describe(`[API-1] the app origin's headers on ${testDb}`, () => {
  let t: TestApp;
  const dist = mkdtempSync(join(tmpdir(), 'reskin-web-'));
  beforeAll(async () => {
    writeDist(dist);
    t = await createTestApp({ webDistDir: dist, playOrigin: 'https://play.example.com' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the security headers on pages, assets and API answers', async () => {
    for (const url of ['/', '/admin', '/assets/index-AbC123.js', '/api/config', '/api/nope']) {
      const response = await call(t, 'GET', url);
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("style-src 'self'");
      expect(csp, url).toContain('frame-src https://play.example.com');
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toContain('unsafe-inline');
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('answers every /api call with Cache-Control: no-store, a reset password included', async () => {
    for (const url of ['/api/config', '/api/nope', '/api/user/me']) {
      expect((await call(t, 'GET', url)).headers['cache-control'], url).toBe('no-store');
    }
    const login = await call(t, 'POST', '/api/user/login', {
      payload: { email: 'nobody@example.com', password: 'wrong-password' },
    });
    expect(login.headers['cache-control']).toBe('no-store');
  });

  it('caches content-hashed assets for a year and revalidates index.html', async () => {
    const asset = await call(t, 'GET', '/assets/index-AbC123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/my-games/versions?gameId=1']) {
      const page = await call(t, 'GET', url);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends the br or gzip copy of an asset to a client that accepts it', async () => {
    const br = await call(t, 'GET', '/assets/index-AbC123.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gzip = await call(t, 'GET', '/assets/index-AbC123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await call(t, 'GET', '/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses JSON answers of the API', async () => {
    // The OpenAPI document is a large JSON answer.
    const response = await call(t, 'GET', '/api/docs/json', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(response.rawPayload).toString())).toHaveProperty('openapi');
  });

  it('answers unknown paths under /api and /assets with the JSON 404 envelope, never the page', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api'],
      ['POST', '/api/nope'],
      ['GET', '/api/health/nope'],
      ['GET', '/assets/missing-123.js'],
    ] as const) {
      const response = await call(t, method, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.json(), url).toMatchObject({ error: { statusCode: 404, code: 'NOT_FOUND' } });
    }
  });

  it('keeps an incoming X-Request-Id and sends it back; makes one up otherwise', async () => {
    const kept = await call(t, 'GET', '/api/config', { headers: { 'x-request-id': 'lb-7f3a-0001' } });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a-0001');
    const made = await call(t, 'GET', '/api/config', { headers: { 'x-request-id': 'not acceptable\u0001' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call(t, 'GET', '/api/config')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves the SPA catch-all out of the OpenAPI document', async () => {
    const document = (await call(t, 'GET', '/api/docs/json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
  });
});

describe(`[API-1] behind a TLS-terminating proxy on ${testDb}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: true });
  });
  afterAll(async () => t.close());

  it('marks the XSRF cookie Secure when the request came over https, and not over plain http', async () => {
    const overTls = await call(t, 'GET', '/api/config', { headers: { 'x-forwarded-proto': 'https' } });
    expect(String(overTls.headers['set-cookie'])).toMatch(/XSRF-TOKEN=[^;]+;.*Secure/);
    const plain = await call(t, 'GET', '/api/config');
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
  });
});
