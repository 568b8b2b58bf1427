import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
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
  /** The keys of the objects the store holds under `prefix`, sorted, read from its folder (also while it is stopped). */
  storedKeys(prefix: string): string[];
  /** Stops the server and keeps its objects: an outage of the store. */
  stop(): Promise<void>;
  /** Starts a stopped server again on the same port, with the objects it held. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A running s3rver process and the port it listens on. */
async function spawnS3rver(directory: string, bucket: string, port = 0) {
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', script, directory, bucket, String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    exited.then(([code]) => {
      throw new Error(`the S3 server exited (${code}) before it listened`);
    }),
  ]);
  return { child, exited, port: (JSON.parse(first) as { port: number }).port };
}

const script = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

/**
 * A real S3 protocol server on this machine (s3rver: the S3 REST API over a folder), in a process of its own on a
 * free loopback port, with one empty bucket, for the tests and the bench. Its data lives in a temporary folder
 * that close() removes.
 */
export async function startS3Server(bucket = 'reskin-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'reskin-s3-'));
  let server = await spawnS3rver(directory, bucket);
  const { port } = server;
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const stop = async () => {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  };
  const objectSuffix = '._S3rver_object';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    storageConfig: {
      kind: 's3',
      endpoint,
      region: 'us-east-1',
      bucket,
      accessKeyId,
      secretAccessKey,
      forcePathStyle: true,
    },
    setLastModified: (key, date) => utimesSync(join(directory, bucket, `${key}${objectSuffix}`), date, date),
    storedKeys: (prefix) => {
      const root = join(directory, bucket);
      const folder = join(root, prefix);
      if (!existsSync(folder)) return [];
      return readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith(objectSuffix))
        .map((entry) =>
          relative(root, join(entry.parentPath, entry.name))
            .split(sep)
            .join('/')
            .slice(0, -objectSuffix.length),
        )
        .sort();
    },
    stop,
    restart: async () => {
      await stop();
      server = await spawnS3rver(directory, bucket, port);
    },
    close: async () => {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
