import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../src/storage/local-disk-storage';
import { S3Storage } from '../src/storage/s3-storage';
import { copyStorage } from '../src/storage/storage-copy';
import type { Storage } from '../src/storage/storage';
import { testDb } from './helpers';
import { startS3Server, type S3Server } from './support/s3-server';
import { buildIfStale, repoRoot } from './support/server-process';

// `npm run storage:copy`: an install on the local disk moves to an object store. Storage only: SQLite pass.

async function contents(storage: Storage): Promise<Record<string, string>> {
  const all: Record<string, string> = {};
  for await (const { key } of storage.list())
    all[key] = (await buffer((await storage.get(key))!.stream)).toString();
  return all;
}

describe.runIf(testDb === 'sqlite')('copying the local disk to S3', () => {
  let s3: S3Server;
  let dataDir: string;
  let local: LocalDiskStorage;
  let bucket: S3Storage;
  const files: Record<string, string> = {
    'games/1/files/a.png': 'a png',
    'games/1/files/a.png.skeleton.png': 'its skeleton',
    'games/2/files/deep/er/b.js': 'export {}',
    'versions/3/files/c.ogg': 'OggS',
    'helpers/1/files/d.psd': 'PSD',
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    dataDir = mkdtempSync(join(tmpdir(), 'reskin-copy-'));
    local = new LocalDiskStorage(join(dataDir, 'files'));
    for (const [key, text] of Object.entries(files)) await local.put(key, Readable.from([Buffer.from(text)]));
    bucket = await S3Storage.open(s3.storageConfig);
  });
  afterAll(async () => {
    bucket?.close();
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every object under its key; a second run copies nothing again; a changed object is copied anew', async () => {
    expect(await copyStorage(local, bucket, () => {})).toEqual({
      copied: 5,
      skipped: 0,
      bytes: Object.values(files).join('').length,
    });
    expect(await contents(bucket)).toEqual(files);
    expect(await copyStorage(local, bucket, () => {})).toEqual({ copied: 0, skipped: 5, bytes: 0 });
    await local.put('versions/3/files/c.ogg', Readable.from([Buffer.from('OggS, longer now')]));
    expect(await copyStorage(local, bucket, () => {})).toMatchObject({ copied: 1, skipped: 4 });
    expect((await contents(bucket))['versions/3/files/c.ogg']).toBe('OggS, longer now');
  });

  it("`npm run storage:copy` runs it with the server's configuration and says what it did; without STORAGE=s3 it says what to set", () => {
    buildIfStale();
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    const run = spawnSync('npm', ['run', '--silent', 'storage:copy'], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`to the bucket ${s3.bucket}`);
    expect(run.stdout).toMatch(/Done: 0 copied \(0\.0 MB\), 5 already there\./);

    const local = spawnSync('npm', ['run', '--silent', 'storage:copy'], {
      cwd: repoRoot,
      env: { ...env, STORAGE: 'local' },
      encoding: 'utf8',
    });
    expect(local.status).toBe(1);
    expect(local.stderr).toContain('set STORAGE=s3 and the S3_* variables of the target');
  });
});
