import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { legalDocuments, type LegalDocument } from '@reskin/contract';
import { envSchema, gamePlaceholder, type Env } from './environment';
import type { PostingRate } from './lib/posting-throttle';
import { makePrivateDirSync, makePrivateFileSync } from './lib/private-files';

/**
 * apps/server, the folder above this file: src/config.ts when run from source, dist/server.js (the bundle)
 * in production. Paths of the server's own files start here so both layouts find them.
 */
export const serverRoot = fileURLToPath(new URL('..', import.meta.url));

/** A configuration that cannot work; server.ts prints its message as one line and exits before anything else. */
export class ConfigError extends Error {}

/** Where stored files live: the local disk, or an S3-compatible object store (STORAGE, S3_*). */
export type StorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      endpoint: string | undefined;
      region: string;
      bucket: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  playPort: number;
  /** PLAY_ORIGIN: one origin for every game, or with `{game}` in its host one per game (play/play-origins.ts). */
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
  /** Milliseconds a stopping server waits for requests in flight (DRAIN_TIMEOUT_SECONDS). */
  drainTimeoutMs: number;
  /** Milliseconds the play origin caches a link's access check (PLAY_ACCESS_CACHE_SECONDS): how late a revocation may come. */
  playAccessCacheMs: number;
  /** Milliseconds the play origin keeps a file lookup (PLAY_FILE_CACHE_SECONDS): how late a changed file may show. */
  playFileCacheMs: number;
  /** Bytes of bodies the play origin keeps (PLAY_BODY_CACHE_MB, decision 0037). */
  playBodyCacheBytes: number;
  /**
   * The play origin's record of the files plays load (decision 0023): PLAY_USAGE, and in milliseconds
   * PLAY_USAGE_START_SECONDS (the "at start" window) and PLAY_USAGE_FLUSH_SECONDS (how often counts are written).
   */
  playUsage: { enabled: boolean; startWindowMs: number; flushMs: number };
  /** PLAY_ACCEL_REDIRECT: nginx's internal location for DATA_DIR/files (local storage only); unset: the app sends files. */
  playAccelRedirect: string | undefined;
  logLevel: string;
  /**
   * Fastify's trustProxy. Off by default: the client address (which the login rate limit counts by) then
   * cannot be forged with an X-Forwarded-For header.
   */
  trustProxy: TrustProxy;
  /** The built web app to serve at `/`; skipped when the folder does not exist. */
  webDistDir: string;
  /** The operator's legal texts from LEGAL_DIR, read at start; a document not in it gets the server's placeholder. */
  legalTexts: Partial<Record<LegalDocument, string>>;
  /** STORAGE and S3_*: where stored files live. */
  storage: StorageConfig;
  /**
   * MIN_FREE_SPACE_PERCENT and MIN_FREE_SPACE_MB (in bytes): below the smaller of the two, uploads, zip uploads and
   * generation are refused with 507 (storage/free-space.ts).
   */
  minFreeSpace: { percent: number; bytes: number };
  /** REDIS_URL: rate limits shared by every app server; unset: in this process's memory. */
  redisUrl: string | undefined;
  /**
   * GENERATION_LEASE_SECONDS in milliseconds: how soon another server takes over a dead server's generation job (a
   * live server renews its job's lease every second, decision 0064).
   */
  generationLeaseMs: number;
  /** How long one slice of a generation job starts images before the next is queued; unset: 5 s. Tests shorten it. */
  generationSliceMs?: number | undefined;
  /** METRICS_TOKEN: the bearer token of GET /api/metrics; unset: the route answers 404. */
  metricsToken: string | undefined;
  /** VERSION_HISTORY_LIMIT: history entries kept per version and file (decision 0034). */
  versionHistoryLimit: number;
  /** SMTP_URL and the rest of mail (decision 0035); undefined: mail is off. */
  mail?: MailConfig;
  /** NOTES_PER_MINUTE, NOTES_BURST, FINISHES_PER_MINUTE, FINISHES_BURST: the posting throttles (decision 0044). */
  postingLimits: { notes: PostingRate; finishes: PostingRate };
}

/** Mail's configuration (SMTP_URL, MAIL_FROM, PUBLIC_URL, MAIL_DIGEST_HOUR). */
export interface MailConfig {
  smtpUrl: string;
  from: string;
  /** The app's public address, without a trailing slash: the start of every link in mail. */
  publicUrl: string;
  /** The hour (UTC) the daily digest goes out. */
  digestHourUtc: number;
  /** How often each server's worker looks for due mail besides being woken when one is queued (tests: long). */
  pollMs: number;
}

/** Which proxy hops Fastify believes: all (true), none (false), the nearest n, or the listed addresses. */
export type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

/** TRUST_PROXY: true/false, a number of proxy hops (`1`), or proxy addresses and CIDRs. */
function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}

/** Reads the secret from DATA_DIR, creating it once, so tokens survive restarts without configuration. */
function persistentSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  makePrivateFileSync(file);
  writeFileSync(file, secret);
  return secret;
}

/**
 * LEGAL_DIR: the operator's own text of each legal document, `<document>.md` or `<document>.txt` (UTF-8, served
 * as plain text), read once at start. A missing folder, an unreadable or empty file, or both files for one
 * document stop the start; a document without a file keeps the placeholder.
 */
function readLegalTexts(dir: string | undefined): Partial<Record<LegalDocument, string>> {
  if (dir === undefined || dir === '') return {};
  const invalid = (why: string) =>
    new ConfigError(`Invalid configuration: LEGAL_DIR=${shown('LEGAL_DIR', dir)}: ${why}.`);
  const folder = resolve(dir);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw invalid('no such folder');
  const texts: Partial<Record<LegalDocument, string>> = {};
  for (const { document } of legalDocuments) {
    const names = [`${document}.md`, `${document}.txt`].filter((name) => existsSync(join(folder, name)));
    if (names.length > 1) throw invalid(`both ${names.join(' and ')}: keep one`);
    const name = names[0];
    if (name === undefined) continue;
    let text: string;
    try {
      text = readFileSync(join(folder, name), 'utf8').trim();
    } catch (error) {
      throw invalid(
        `cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    if (text === '') throw invalid(`${name} is empty`);
    texts[document] = text;
  }
  return texts;
}

/** The value of a variable as the message shows it: quoted, cut short, never a secret. */
function shown(name: string, value: unknown): string {
  if (value === undefined) return 'unset';
  if (/SECRET|PASSWORD|TOKEN/.test(name)) return 'set';
  const text = String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text).replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * Parses and types the environment once. An invalid variable throws a ConfigError whose message is one line
 * naming each bad variable, its value and what was expected.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return `${name}=${shown(name, env[name])}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}.`);
  }
  const e = parsed.data;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration: set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither.');
  }
  const playPort = e.PLAY_PORT ?? e.PORT + 1;
  if (playPort === e.PORT && e.PORT !== 0) {
    throw new ConfigError(
      `Invalid configuration: PLAY_PORT=${playPort}: the play origin needs a port of its own, not PORT's.`,
    );
  }
  if (e.PLAY_ACCEL_REDIRECT && e.STORAGE !== 'local') {
    throw new ConfigError(
      'Invalid configuration: PLAY_ACCEL_REDIRECT needs STORAGE=local (nginx sends the files from DATA_DIR/files).',
    );
  }
  const seedDemo = e.SEED_DEMO ?? e.NODE_ENV !== 'production';
  if (seedDemo && !isLoopback(e.HOST)) {
    throw new ConfigError(
      `Invalid configuration: HOST=${shown('HOST', e.HOST)}: the demo accounts' passwords are public, so they are seeded only on a loopback address; set SEED_DEMO=false (or NODE_ENV=production) to listen on ${e.HOST}.`,
    );
  }
  const dataDir = resolve(e.DATA_DIR);
  try {
    makePrivateDirSync(dataDir);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: DATA_DIR=${shown('DATA_DIR', e.DATA_DIR)}: cannot create it (${(error as Error).message}).`,
    );
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    playPort,
    // A different site from the app's localhost, and one host per game (*.localhost is loopback in browsers).
    playOrigin: (e.PLAY_ORIGIN ?? `http://g${gamePlaceholder}.localhost:${playPort}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL?.startsWith('postgres') ? e.DATABASE_URL : undefined,
    databaseStartupTimeoutMs: Math.round(e.DATABASE_STARTUP_TIMEOUT_SECONDS * 1000),
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    seedDemo,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    productName: e.PRODUCT_NAME,
    maxFileSizeBytes: Math.round(e.MAX_FILE_SIZE_MB * 1024 * 1024),
    authRateLimitMax: e.AUTH_RATE_LIMIT_MAX,
    drainTimeoutMs: Math.round(e.DRAIN_TIMEOUT_SECONDS * 1000),
    playAccessCacheMs: Math.round(e.PLAY_ACCESS_CACHE_SECONDS * 1000),
    playFileCacheMs: Math.round(e.PLAY_FILE_CACHE_SECONDS * 1000),
    playBodyCacheBytes: Math.round(e.PLAY_BODY_CACHE_MB * 1024 * 1024),
    playUsage: {
      enabled: e.PLAY_USAGE,
      startWindowMs: Math.round(e.PLAY_USAGE_START_SECONDS * 1000),
      flushMs: Math.round(e.PLAY_USAGE_FLUSH_SECONDS * 1000),
    },
    playAccelRedirect: e.PLAY_ACCEL_REDIRECT || undefined,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    webDistDir: resolve(e.WEB_DIST_DIR ?? join(serverRoot, '../web/dist')),
    legalTexts: readLegalTexts(e.LEGAL_DIR),
    storage: storageConfig(e, dataDir),
    minFreeSpace: { percent: e.MIN_FREE_SPACE_PERCENT, bytes: Math.round(e.MIN_FREE_SPACE_MB * 1024 * 1024) },
    redisUrl: e.REDIS_URL,
    generationLeaseMs: e.GENERATION_LEASE_SECONDS * 1000,
    metricsToken: e.METRICS_TOKEN || undefined,
    versionHistoryLimit: e.VERSION_HISTORY_LIMIT,
    mail: mailConfig(e),
    postingLimits: {
      notes: { perMinute: e.NOTES_PER_MINUTE, burst: e.NOTES_BURST },
      finishes: { perMinute: e.FINISHES_PER_MINUTE, burst: e.FINISHES_BURST },
    },
  };
}

/** True for an address only this machine reaches: localhost, 127.0.0.0/8, ::1. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return (
    bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare)
  );
}

/** SMTP_URL turns mail on; PUBLIC_URL defaults to this server on localhost, MAIL_FROM to no-reply at its host. */
function mailConfig(e: Env): MailConfig | undefined {
  if (!e.SMTP_URL) return undefined;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const host = new URL(publicUrl).hostname;
  return {
    smtpUrl: e.SMTP_URL,
    from: e.MAIL_FROM ?? `"${e.PRODUCT_NAME.replace(/["\\]/g, '')}" <no-reply@${host}>`,
    publicUrl,
    digestHourUtc: e.MAIL_DIGEST_HOUR,
    pollMs: 15_000,
  };
}

/** STORAGE=s3 needs a bucket, and both keys or neither (neither: the SDK's own chain, such as an instance role). */
function storageConfig(e: Env, dataDir: string): StorageConfig {
  if (e.STORAGE === 'local') return { kind: 'local', dir: join(dataDir, 'files') };
  if (!e.S3_BUCKET) throw new ConfigError('Invalid configuration: STORAGE=s3 needs S3_BUCKET.');
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'Invalid configuration: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither.',
    );
  }
  return {
    kind: 's3',
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}
