import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { limits } from '@reskin/contract';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-config-'));
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32), ...env });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('names each bad variable, its value and what was expected, on one line', () => {
    expect(() => load({ PORT: '70000', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => load({ PORT: '70000', LOG_LEVEL: 'loud' })).toThrow(
      /^Invalid configuration: PORT="70000": expected a port number from 0 to 65535; LOG_LEVEL="loud": expected fatal, error/,
    );
    expect(() => load({ PORT: 'x' })).not.toThrow(/\n/);
  });

  it('takes SQLite (unset or sqlite:) or PostgreSQL URLs, and hides a refused URL password', () => {
    expect(load({}).databaseUrl).toBeUndefined();
    expect(load({ DATABASE_URL: 'sqlite:' }).databaseUrl).toBeUndefined();
    expect(load({ DATABASE_URL: 'postgresql://u:p@db/reskin' }).databaseUrl).toBe(
      'postgresql://u:p@db/reskin',
    );
    expect(() => load({ DATABASE_URL: 'mysql://root:hunter2@db/reskin' })).toThrow(
      /DATABASE_URL="mysql:\/\/\*\*\*@db\/reskin"/,
    );
    expect(() => load({ DATABASE_URL: 'mysql://root:hunter2@db/reskin' })).not.toThrow(/hunter2/);
    expect(() => load({ DATABASE_URL: 'sqlite:/var/reskin.db' })).toThrow(/DATABASE_URL/);
  });

  it('mail is off without SMTP_URL; with it PUBLIC_URL and MAIL_FROM default from PORT and the product name; a bad SMTP_URL hides its password', () => {
    expect(load({}).mail).toBeUndefined();
    expect(load({ SMTP_URL: 'smtp://u:secret@mail.example.com:587', PORT: '4000' }).mail).toEqual({
      smtpUrl: 'smtp://u:secret@mail.example.com:587',
      from: '"Reskin Studio" <no-reply@localhost>',
      publicUrl: 'http://localhost:4000',
      digestHourUtc: 8,
      pollMs: 15_000,
    });
    const configured = load({
      SMTP_URL: 'smtps://mail.example.com',
      PUBLIC_URL: 'https://reskin.example.com/',
      MAIL_FROM: 'Studio <studio@example.com>',
      MAIL_DIGEST_HOUR: '17',
    }).mail;
    expect(configured).toMatchObject({
      publicUrl: 'https://reskin.example.com',
      from: 'Studio <studio@example.com>',
      digestHourUtc: 17,
    });
    expect(() => load({ SMTP_URL: 'http://u:hunter2@mail.example.com' })).toThrow(
      /SMTP_URL="http:\/\/\*\*\*@mail.example.com": expected smtp:\/\//,
    );
    expect(() => load({ SMTP_URL: 'http://u:hunter2@mail.example.com' })).not.toThrow(/hunter2/);
    expect(() => load({ SMTP_URL: 'smtp://mail', PUBLIC_URL: 'ftp://x' })).toThrow(/PUBLIC_URL/);
    expect(() => load({ MAIL_DIGEST_HOUR: '24' })).toThrow(
      /MAIL_DIGEST_HOUR="24": expected an hour from 0 to 23/,
    );
  });

  it('seeds the demo accounts by default, but not with NODE_ENV=production unless SEED_DEMO=true', () => {
    expect(load({}).seedDemo).toBe(true);
    expect(load({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(load({ NODE_ENV: 'production', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(load({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('listens on localhost by default and seeds the demo accounts only on a loopback address (decision 0053)', () => {
    expect(load({}).host).toBe('localhost');
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'LOCALHOST', 'app.localhost'])
      expect(load({ HOST: host }).seedDemo).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'studio.example.com']) {
      expect(() => load({ HOST: host })).toThrow(
        /HOST=.*the demo accounts' passwords are public.*set SEED_DEMO=false/,
      );
      expect(() => load({ HOST: host, SEED_DEMO: 'true' })).toThrow(/SEED_DEMO=false/);
      expect(load({ HOST: host, SEED_DEMO: 'false' })).toMatchObject({ host, seedDemo: false });
      expect(load({ HOST: host, NODE_ENV: 'production' })).toMatchObject({ host, seedDemo: false });
    }
  });

  it('takes PLAY_ACCEL_REDIRECT as a location prefix, for local storage only', () => {
    expect(load({}).playAccelRedirect).toBeUndefined();
    expect(load({ PLAY_ACCEL_REDIRECT: '/_stored/' }).playAccelRedirect).toBe('/_stored/');
    expect(() => load({ PLAY_ACCEL_REDIRECT: '_stored' })).toThrow(
      /PLAY_ACCEL_REDIRECT="_stored": expected a location such as \/_stored\//,
    );
    expect(() => load({ PLAY_ACCEL_REDIRECT: '/_stored/', STORAGE: 's3', S3_BUCKET: 'games' })).toThrow(
      /PLAY_ACCEL_REDIRECT needs STORAGE=local/,
    );
    expect(load({ PLAY_FILE_CACHE_SECONDS: '0.5' }).playFileCacheMs).toBe(500);
  });

  it('reads the play usage record settings, on with a 10 s start window by default', () => {
    expect(load({}).playUsage).toEqual({ enabled: true, startWindowMs: 10_000, flushMs: 5000 });
    expect(
      load({ PLAY_USAGE: 'false', PLAY_USAGE_START_SECONDS: '2.5', PLAY_USAGE_FLUSH_SECONDS: '0.5' })
        .playUsage,
    ).toEqual({
      enabled: false,
      startWindowMs: 2500,
      flushMs: 500,
    });
    expect(() => load({ PLAY_USAGE_FLUSH_SECONDS: '0' })).toThrow(
      /PLAY_USAGE_FLUSH_SECONDS="0": expected at least 0.1 seconds/,
    );
    expect(() => load({ PLAY_USAGE: 'maybe' })).toThrow(/PLAY_USAGE="maybe": expected true or false/);
  });

  it('decision 0044: the posting throttles are the contract limits unless NOTES_* and FINISHES_* raise them', () => {
    expect(load({}).postingLimits).toEqual({
      notes: limits.posting.notes,
      finishes: limits.posting.finishes,
    });
    expect(
      load({ NOTES_PER_MINUTE: '500', NOTES_BURST: '1000', FINISHES_BURST: '40' }).postingLimits,
    ).toEqual({
      notes: { perMinute: 500, burst: 1000 },
      finishes: { perMinute: limits.posting.finishes.perMinute, burst: 40 },
    });
    expect(() => load({ NOTES_BURST: '0' })).toThrow(/NOTES_BURST="0": expected a number above 0/);
    expect(() => load({ FINISHES_PER_MINUTE: 'lots' })).toThrow(
      /FINISHES_PER_MINUTE="lots": expected a whole number/,
    );
  });

  it('keeps VERSION_HISTORY_LIMIT history entries per file, 10 by default, 1 to 100', () => {
    expect(load({}).versionHistoryLimit).toBe(10);
    expect(load({ VERSION_HISTORY_LIMIT: '3' }).versionHistoryLimit).toBe(3);
    expect(() => load({ VERSION_HISTORY_LIMIT: '0' })).toThrow(
      /VERSION_HISTORY_LIMIT="0": expected at least 1/,
    );
    expect(() => load({ VERSION_HISTORY_LIMIT: '101' })).toThrow(
      /VERSION_HISTORY_LIMIT="101": expected at most 100/,
    );
    expect(() => load({ VERSION_HISTORY_LIMIT: '2.5' })).toThrow(
      /VERSION_HISTORY_LIMIT="2.5": expected a whole number/,
    );
  });

  it('reads TRUST_PROXY as on/off, a number of proxy hops, or addresses', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
    const oneHop = load({ TRUST_PROXY: '1' }).trustProxy;
    expect(typeof oneHop).toBe('function');
    if (typeof oneHop === 'function') {
      expect(oneHop('10.0.0.2', 0)).toBe(true);
      expect(oneHop('203.0.113.9', 1)).toBe(false);
    }
  });

  it('refuses a play port equal to the app port, and a half-set administrator', () => {
    expect(() => load({ PORT: '4000', PLAY_PORT: '4000' })).toThrow(/PLAY_PORT=4000/);
    expect(() => load({ ADMIN_EMAIL: 'boss@example.com' })).toThrow(/ADMIN_EMAIL and ADMIN_PASSWORD/);
  });

  it('puts the play origin on a different site with a host per game by default, and checks PLAY_ORIGIN (decision 0017)', () => {
    expect(load({ PORT: '4000' }).playOrigin).toBe('http://g{game}.localhost:4001');
    expect(load({ PLAY_ORIGIN: 'https://play.example-games.com/' }).playOrigin).toBe(
      'https://play.example-games.com',
    );
    expect(load({ PLAY_ORIGIN: 'https://g{game}.play.example-games.com' }).playOrigin).toBe(
      'https://g{game}.play.example-games.com',
    );
    expect(() => load({ PLAY_ORIGIN: 'play.example.com' })).toThrow(
      /PLAY_ORIGIN="play.example.com": expected a URL/,
    );
    expect(() => load({ PLAY_ORIGIN: 'https://play.example.com/games' })).toThrow(
      /PLAY_ORIGIN=.*without a path/,
    );
    expect(() => load({ PLAY_ORIGIN: 'ftp://play.example.com' })).toThrow(/PLAY_ORIGIN=.*http/);
    expect(() => load({ PLAY_ORIGIN: 'https://play.g{game}.example.com' })).toThrow(
      /PLAY_ORIGIN=.*first label/,
    );
    expect(() => load({ PLAY_ORIGIN: 'https://g{game}.g{game}.example.com' })).toThrow(
      /PLAY_ORIGIN=.*at most once/,
    );
  });

  it("reads the operator's legal texts from LEGAL_DIR, and refuses a missing folder, an empty file or two files for one document", () => {
    expect(load({}).legalTexts).toEqual({});
    const legal = join(dataDir, 'legal');
    mkdirSync(legal);
    writeFileSync(join(legal, 'user-agreement.txt'), '\uFEFFAgree to this.\n');
    expect(load({ LEGAL_DIR: legal }).legalTexts).toEqual({ 'user-agreement': 'Agree to this.' });

    expect(() => load({ LEGAL_DIR: join(dataDir, 'nowhere') })).toThrow(ConfigError);
    expect(() => load({ LEGAL_DIR: join(dataDir, 'nowhere') })).toThrow(
      /^Invalid configuration: LEGAL_DIR=".*nowhere": no such folder\.$/,
    );
    writeFileSync(join(legal, 'privacy-policy.md'), '  \n');
    expect(() => load({ LEGAL_DIR: legal })).toThrow(/LEGAL_DIR=".*": privacy-policy\.md is empty\./);
    rmSync(join(legal, 'privacy-policy.md'));
    writeFileSync(join(legal, 'user-agreement.md'), 'Agree to that.');
    expect(() => load({ LEGAL_DIR: legal })).toThrow(
      /both user-agreement\.md and user-agreement\.txt: keep one\./,
    );
  });
});
