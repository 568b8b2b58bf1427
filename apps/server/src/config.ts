import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { limits } from '@reskin/contract';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** The environment variables the server reads (README "Configuration"). */
const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PLAY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  PLAY_ORIGIN: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** At start, how long to keep trying to reach PostgreSQL before giving up (0: try once). */
  DATABASE_STARTUP_TIMEOUT_SECONDS: z.coerce.number({ error: 'expected a number of seconds' }).min(0, { error: 'expected 0 or more seconds' }).default(30),
  JWT_SECRET: z.string().min(16).optional(),
  SEED_DEMO: booleanFromEnv.default(true),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  PRODUCT_NAME: z.string().min(1).default('Reskin Studio'),
  MAX_FILE_SIZE_MB: z.coerce.number().positive().default(limits.defaultMaxFileSizeMb),
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
  /** Behind a reverse proxy, trust its X-Forwarded-For (true, or the proxy addresses/CIDRs); off by default. */
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
});

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  playPort: number;
  playOrigin: string;
  dataDir: string;
  /** PostgreSQL connection string; unset means SQLite in dataDir. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (tests give each file its own); unset means the default search_path. */
  databaseSchema?: string;
  /** Milliseconds to keep retrying an unreachable PostgreSQL at start (DATABASE_STARTUP_TIMEOUT_SECONDS). */
  databaseStartupTimeoutMs: number;
  jwtSecret: string;
  seedDemo: boolean;
  admin: { email: string; password: string } | undefined;
  productName: string;
  maxFileSizeBytes: number;
  authRateLimitMax: number;
  logLevel: string;
  /**
   * Fastify's trustProxy. Off by default: the client address (which the login rate limit counts by) then
   * cannot be forged with an X-Forwarded-For header.
   */
  trustProxy: boolean | string;
  /** The built web app to serve at `/`; skipped when the folder does not exist. */
  webDistDir: string;
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || value === 'false') return false;
  return value === 'true' ? true : value;
}

/** Reads the secret from DATA_DIR, creating it once, so tokens survive restarts without configuration. */
function persistentSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Parses and types the environment once; an invalid variable stops the start with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const playPort = e.PLAY_PORT ?? e.PORT + 1;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new Error('Invalid configuration: set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither.');
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    playPort,
    playOrigin: (e.PLAY_ORIGIN ?? `http://localhost:${playPort}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databaseStartupTimeoutMs: Math.round(e.DATABASE_STARTUP_TIMEOUT_SECONDS * 1000),
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    seedDemo: e.SEED_DEMO,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    productName: e.PRODUCT_NAME,
    maxFileSizeBytes: Math.round(e.MAX_FILE_SIZE_MB * 1024 * 1024),
    authRateLimitMax: e.AUTH_RATE_LIMIT_MAX,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    webDistDir: resolve(e.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
  };
}
