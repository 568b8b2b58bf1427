import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { StorageConfig } from '../../src/config';

export interface S3Server {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The server's STORAGE=s3 configuration for this store. */
  storageConfig: Extract<StorageConfig, { kind: 's3' }>;
  /**
   * Makes an object look last written at `date` (S3 has no call for it; s3rver keeps each object as a file
   * `<key>._S3rver_object` in its folder and answers that file's mtime), to test what happens to old objects.
   */
  setLastModified(key: string, date: Date): void;
  close(): Promise<void>;
}

const script = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

/**
 * A real S3 protocol server on this machine (s3rver: the S3 REST API over a folder), in a process of its own on a
 * free loopback port, with one empty bucket, for the tests and the bench. Its data lives in a temporary folder
 * that close() removes.
 */
export async function startS3Server(bucket = 'reskin-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'reskin-s3-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, directory, bucket], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    exited.then(([code]) => {
      throw new Error(`the S3 server exited (${code}) before it listened`);
    }),
  ]);
  const { port } = JSON.parse(first) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    storageConfig: { kind: 's3', endpoint, region: 'us-east-1', bucket, accessKeyId, secretAccessKey, forcePathStyle: true },
    setLastModified: (key, date) => utimesSync(join(directory, bucket, `${key}._S3rver_object`), date, date),
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
