import { z } from 'zod';
import { limits } from '@reskin/contract';

// The environment variables the server reads (README "Configuration") and the form each must have; config.ts
// turns them into the typed Config.

/** The placeholder in PLAY_ORIGIN that makes one origin per game (decision 0017). */
export const gamePlaceholder = '{game}';

/**
 * Why a PLAY_ORIGIN cannot be used, or undefined when it can: an http(s) origin with no path, and at most one
 * `{game}`, inside the first label of its host (`https://g{game}.play.example-games.com`).
 */
export function playOriginProblem(template: string): string | undefined {
  const count = template.split(gamePlaceholder).length - 1;
  if (count > 1) return `expected ${gamePlaceholder} at most once`;
  let url: URL;
  try {
    url = new URL(template.replace(gamePlaceholder, '1'));
  } catch {
    return 'expected a URL such as https://play.example-games.com or https://g{game}.play.example-games.com';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'expected an http:// or https:// URL';
  if (url.pathname !== '/' || url.search || url.hash || url.username)
    return 'expected an origin only (scheme, host and port), without a path';
  if (count === 1) {
    const host = template.split('://')[1] ?? '';
    const firstLabel = host.split('.')[0] ?? '';
    if (!firstLabel.includes(gamePlaceholder) || !host.includes('.')) {
      return `expected ${gamePlaceholder} in the first label of a host with a domain under it, such as g${gamePlaceholder}.play.example-games.com`;
    }
  }
  return undefined;
}

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const portFromEnv = z.coerce
  .number({ error: 'expected a port number from 0 to 65535' })
  .int({ error: 'expected a port number from 0 to 65535' })
  .min(0, { error: 'expected a port number from 0 to 65535' })
  .max(65535, { error: 'expected a port number from 0 to 65535' });

/** SQLite in DATA_DIR (unset, or `sqlite:`) or PostgreSQL (`postgres://` or `postgresql://`); anything else is refused. */
const databaseUrlFromEnv = z
  .string()
  .refine((value) => /^(|sqlite:?)$/.test(value) || /^(postgres|postgresql):\/\/./.test(value), {
    error:
      'expected postgres://user:password@host:5432/database for PostgreSQL, or sqlite: (or unset) for SQLite in DATA_DIR',
  });

const wholeAboveZero = z.coerce
  .number({ error: 'expected a whole number' })
  .int({ error: 'expected a whole number' })
  .positive({ error: 'expected a number above 0' });

/** The environment variables the server reads (README "Configuration"). */
export const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: portFromEnv.default(3000),
  /** Loopback unless asked: a development start seeds demo accounts whose passwords the README prints (decision 0053). */
  HOST: z.string().min(1, { error: 'expected a host name or address' }).default('localhost'),
  PLAY_PORT: portFromEnv.optional(),
  /** Where games are played; `{game}` in its host gives each game an origin of its own (decision 0017). */
  PLAY_ORIGIN: z
    .string()
    .check((ctx) => {
      const problem = playOriginProblem(ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
    })
    .optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: databaseUrlFromEnv.optional(),
  /** At start, how long to keep trying to reach PostgreSQL before giving up (0: try once). */
  DATABASE_STARTUP_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0, { error: 'expected 0 or more seconds' })
    .default(30),
  JWT_SECRET: z.string().min(16, { error: 'expected at least 16 characters' }).optional(),
  /** Unset: seed on a development start, never with NODE_ENV=production (the demo passwords are public). */
  SEED_DEMO: booleanFromEnv.optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  PRODUCT_NAME: z.string().min(1).default('Reskin Studio'),
  MAX_FILE_SIZE_MB: z.coerce
    .number({ error: 'expected a number of megabytes' })
    .positive({ error: 'expected a number above 0' })
    .default(limits.defaultMaxFileSizeMb),
  AUTH_RATE_LIMIT_MAX: z.coerce
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .positive({ error: 'expected a number above 0' })
    .default(20),
  /** How long a stopping server lets requests in flight finish before it exits anyway. */
  DRAIN_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .positive({ error: 'expected a number above 0' })
    .default(10),
  /** How long the play origin keeps its answer to "may this link's user still see it"; 0: ask every time. */
  PLAY_ACCESS_CACHE_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0, { error: 'expected 0 or more seconds' })
    .max(60, { error: 'expected at most 60 seconds' })
    .default(2),
  /**
   * How long the play origin keeps which stored object a game's path serves; 0: look it up every time.
   * An upload, replacement or delete of a game's or version's file shows on the play origin within it.
   */
  PLAY_FILE_CACHE_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0, { error: 'expected 0 or more seconds' })
    .max(60, { error: 'expected at most 60 seconds' })
    .default(2),
  /**
   * Megabytes of answer bodies the play origin keeps in memory (decision 0037): text compressed with brotli or
   * gzip, and files of up to 64 KB as stored. 0: compress every answer again and read every file from storage.
   */
  PLAY_BODY_CACHE_MB: z.coerce
    .number({ error: 'expected a number of megabytes' })
    .min(0, { error: 'expected 0 or more megabytes' })
    .default(64),
  /**
   * Whether the play origin records which files plays load (decision 0023): per game and file, a count,
   * the first time and whether at a play's start. Off: nothing is counted (the bench compares both).
   */
  PLAY_USAGE: booleanFromEnv.default(true),
  /** How long after a play's start a file it loads counts as loaded "at start" (decision 0023). */
  PLAY_USAGE_START_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0, { error: 'expected 0 or more seconds' })
    .max(600, { error: 'expected at most 600 seconds' })
    .default(10),
  /** How often the counted loads are written to the database (and once more when the server stops). */
  PLAY_USAGE_FLUSH_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0.1, { error: 'expected at least 0.1 seconds' })
    .max(300, { error: 'expected at most 300 seconds' })
    .default(5),
  /**
   * Behind nginx (STORAGE=local only): the internal location that serves DATA_DIR/files; the play origin then
   * answers a checked file with `X-Accel-Redirect: <prefix><storage key>` and nginx sends the bytes.
   */
  PLAY_ACCEL_REDIRECT: z
    .string()
    .regex(/^(|\/(?:[\w.~-]+\/)+)$/, {
      error: 'expected a location such as /_stored/ (a path that starts and ends with /)',
    })
    .optional(),
  /** Behind a reverse proxy, trust its X-Forwarded-For (true, or the proxy addresses/CIDRs); off by default. */
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'expected fatal, error, warn, info, debug, trace or silent',
    })
    .default('info'),
  WEB_DIST_DIR: z.string().optional(),
  /** A folder with the operator's own legal texts (terms-of-use.md or .txt, and so on); unset: placeholders. */
  LEGAL_DIR: z.string().optional(),
  /**
   * The free-space guard: uploads, zip uploads and generation answer 507 while DATA_DIR or the
   * temporary folder has less free than the smaller of this share of the volume and MIN_FREE_SPACE_MB; 0: off.
   */
  MIN_FREE_SPACE_PERCENT: z.coerce
    .number({ error: 'expected a percentage' })
    .min(0, { error: 'expected 0 to 100' })
    .max(100, { error: 'expected 0 to 100' })
    .default(5),
  /** The free-space guard's size: 1 GB by default; 0: off. */
  MIN_FREE_SPACE_MB: z.coerce
    .number({ error: 'expected a number of megabytes' })
    .min(0, { error: 'expected 0 or more megabytes' })
    .default(1024),
  /** Where stored files live: `local` (DATA_DIR/files) or `s3` (an S3-compatible object store, S3_*). */
  STORAGE: z.enum(['local', 's3'], { error: 'expected local or s3' }).default('local'),
  /** The store's address; unset: AWS S3 of S3_REGION. MinIO, R2 and the like need it. */
  S3_ENDPOINT: z.url({ error: 'expected a URL such as https://s3.example.com' }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Bucket in the path (`https://host/bucket/key`) instead of the host name; MinIO and most self-hosted stores need it. */
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  /** Shared rate limits for several app servers; unset: counted in each process's memory. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/./, { error: 'expected redis://host:6379 or rediss://...' })
    .optional(),
  /**
   * On PostgreSQL, how long a generation job may run on one server without reporting progress before another
   * server takes it over (a killed server's job is retried after this).
   */
  /**
   * GET /api/metrics (Prometheus, decision 0031) answers to `Authorization: Bearer <METRICS_TOKEN>` only; unset: 404.
   */
  METRICS_TOKEN: z.string().min(16, { error: 'expected at least 16 characters' }).optional(),
  /** How fast one account may post notes and finish versions (decision 0044); unset: the contract's limits.posting. */
  NOTES_PER_MINUTE: wholeAboveZero.default(limits.posting.notes.perMinute),
  NOTES_BURST: wholeAboveZero.default(limits.posting.notes.burst),
  FINISHES_PER_MINUTE: wholeAboveZero.default(limits.posting.finishes.perMinute),
  FINISHES_BURST: wholeAboveZero.default(limits.posting.finishes.burst),
  /** History of a version's file (decision 0034): entries kept per file, oldest dropped first. */
  VERSION_HISTORY_LIMIT: z.coerce
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .min(1, { error: 'expected at least 1' })
    .max(limits.versionHistory.maxPerFile, { error: `expected at most ${limits.versionHistory.maxPerFile}` })
    .default(limits.versionHistory.defaultPerFile),
  GENERATION_LEASE_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .int({ error: 'expected a whole number of seconds' })
    .min(2, { error: 'expected at least 2 seconds' })
    .max(3600, { error: 'expected at most 3600 seconds' })
    .default(3),
  /**
   * Mail (decision 0035): smtp://user:password@host:587 (STARTTLS when offered) or smtps://...:465; unset:
   * no mail (no verification, no forgot password, no inbox mail), the app runs as without it.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/./, {
      error: 'expected smtp://user:password@host:587 or smtps://user:password@host:465',
    })
    .optional(),
  /** The sender of every mail, e.g. `Reskin Studio <no-reply@example.com>`; unset: the product name at no-reply@ PUBLIC_URL's host. */
  MAIL_FROM: z.string().min(3).optional(),
  /** The app's address as its users reach it (the links in mail); unset: http://localhost:PORT. */
  PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      error: 'expected the address users open, such as https://reskin.example.com',
    })
    .optional(),
  /** The hour (0-23, UTC) the daily digest of inbox events goes out. */
  MAIL_DIGEST_HOUR: z.coerce
    .number({ error: 'expected an hour from 0 to 23' })
    .int({ error: 'expected an hour from 0 to 23' })
    .min(0, { error: 'expected an hour from 0 to 23' })
    .max(23, { error: 'expected an hour from 0 to 23' })
    .default(8),
});

/** The environment as the schema reads it. */
export type Env = z.infer<typeof envSchema>;
