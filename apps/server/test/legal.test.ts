import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalDocuments, type LegalDocumentText } from '@reskin/contract';
import { loadConfig } from '../src/config';
import { call, createTestApp, errorOf, testDb, type TestApp } from './helpers';

describe(`[REG-1] the legal documents behind the Register checkbox on ${testDb}`, () => {
  let t: TestApp;
  let operator: TestApp;
  const legalDir = mkdtempSync(join(tmpdir(), 'reskin-legal-'));

  beforeAll(async () => {
    t = await createTestApp();
    writeFileSync(join(legalDir, 'terms-of-use.md'), '# Our terms\n\nBe kind to the games.\n');
    writeFileSync(join(legalDir, 'privacy-policy.txt'), 'We keep your email address.\n\nNothing else.');
    // What the server reads at start from LEGAL_DIR (no user-agreement file: that one keeps the placeholder).
    const { legalTexts } = loadConfig({
      DATA_DIR: legalDir,
      JWT_SECRET: 'x'.repeat(32),
      LEGAL_DIR: legalDir,
    });
    operator = await createTestApp({ legalTexts, productName: 'Acme Reskins' });
  });
  afterAll(async () => {
    await t?.close();
    await operator?.close();
    rmSync(legalDir, { recursive: true, force: true });
  });

  it('answers each document to anyone, without a login, with its title and a placeholder naming the product', async () => {
    for (const { document, title } of legalDocuments) {
      const response = await call(t, 'GET', `/api/legal/${document}`);
      expect(response.statusCode, document).toBe(200);
      const body = response.json<LegalDocumentText>();
      expect(body.title).toBe(title);
      expect(body.text).toContain(
        `The operator of this Reskin Studio site has not published its own ${title} yet.`,
      );
    }
  });

  it('answers 404 for any other name', async () => {
    for (const name of ['cookie-policy', 'Terms-Of-Use', 'terms-of-use.md']) {
      const response = await call(t, 'GET', `/api/legal/${name}`);
      expect(response.statusCode, name).toBe(404);
      expect(errorOf(response).code).toBe('NOT_FOUND');
    }
  });

  it("serves the operator's own texts from LEGAL_DIR, and the placeholder for a document without a file", async () => {
    const text = async (document: string) =>
      (await call(operator, 'GET', `/api/legal/${document}`)).json<LegalDocumentText>();
    expect(await text('terms-of-use')).toEqual({
      title: 'Terms of Use',
      text: '# Our terms\n\nBe kind to the games.',
    });
    expect(await text('privacy-policy')).toEqual({
      title: 'Privacy Policy',
      text: 'We keep your email address.\n\nNothing else.',
    });
    expect((await text('user-agreement')).text).toContain(
      'The operator of this Acme Reskins site has not published its own User Agreement yet.',
    );
  });
});
