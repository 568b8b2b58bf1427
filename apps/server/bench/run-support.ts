// What the benchmark runners share: number formatting, the PostgreSQL probe and the S3 server's environment.
import pg from 'pg';
import type { S3Server } from '../test/support/s3-server';

/** The server's environment for STORAGE=s3 on a real S3 protocol server started for the bench (s3rver, its own process). */
export const s3Env = (s3: S3Server): Record<string, string> => ({
  STORAGE: 's3',
  S3_ENDPOINT: s3.endpoint,
  S3_BUCKET: s3.bucket,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
});

export const fixed = (n: number, digits = 2) => n.toFixed(digits);
export const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let postgres: Promise<boolean> | undefined;
export const postgresUp = () =>
  (postgres ??= new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 })
    .connect()
    .then(async (client) => (await client.end(), true))
    .catch(() => false));
