import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { collectStartupGarbage, startupGarbageDelayMs } from './lib/startup-memory';
import { openStorage } from './storage/create-storage';
import { LocalDiskStorage } from './storage/local-disk-storage';
import { copyStorage, megabytes } from './storage/storage-copy';

/** Refuses a port another process holds before anything is opened or seeded (a ConfigError naming the variable). */
async function assertPortFree(variable: string, port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'is in use by another process'
          : `cannot be opened (${error.code ?? error.message})`;
      reject(new ConfigError(`Invalid configuration: ${variable}=${port}: port ${port} on ${host} ${why}.`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * Starts the app and the play origin, and stops both gracefully on SIGTERM or SIGINT: they stop accepting,
 * requests in flight finish, then the process exits; after the drain timeout it exits anyway (code 1).
 */
async function start(config: Config): Promise<void> {
  await assertPortFree('PORT', config.port, config.host);
  await assertPortFree('PLAY_PORT', config.playPort, config.host);
  const { app, playApp } = await buildApp(config);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A signal to the whole process group reaches node twice under `npm start` (directly, and forwarded by
    // npm): a repeat changes nothing, the drain timeout bounds the wait.
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: draining (at most ${config.drainTimeoutMs} ms)`);
    setTimeout(() => {
      app.log.error(`requests still running after ${config.drainTimeoutMs} ms: exiting`);
      process.exit(1);
    }, config.drainTimeoutMs).unref();
    // Closing the app closes the play origin with it (app.ts): both stop accepting at once.
    void app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'closing failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  await app.listen({ port: config.port, host: config.host });
  await playApp.listen({ port: config.playPort, host: config.host });
  app.log.info(`Reskin Studio on http://localhost:${config.port} (play origin ${config.playOrigin})`);
  // Once start-up's work has settled (V8 gives memory back only when allocation has calmed down): one collection.
  setTimeout(collectStartupGarbage, startupGarbageDelayMs).unref();
}

/**
 * `npm run storage:copy`: copies the local disk's stored files (DATA_DIR/files) into the object store that
 * STORAGE=s3 and S3_* name, before an install moves to it (docs/operations.md).
 */
async function storageCopy(config: Config): Promise<void> {
  if (config.storage.kind !== 's3') {
    throw new ConfigError(
      'storage:copy copies DATA_DIR/files into an object store: set STORAGE=s3 and the S3_* variables of the target.',
    );
  }
  const from = new LocalDiskStorage(join(config.dataDir, 'files'));
  const to = await openStorage(config.storage);
  try {
    console.log(`Copying ${join(config.dataDir, 'files')} to the bucket ${config.storage.bucket} ...`);
    const summary = await copyStorage(from, to.storage, (line) => console.log(line));
    console.log(
      `Done: ${summary.copied} copied (${megabytes(summary.bytes)}), ${summary.skipped} already there.`,
    );
  } finally {
    to.close();
  }
}

try {
  if (process.argv[2] === 'storage-copy') await storageCopy(loadConfig());
  else await start(loadConfig());
} catch (error) {
  // A start that cannot work says why in one line; the stack trace only helps with LOG_LEVEL=debug.
  const message = error instanceof Error ? error.message : String(error);
  console.error(`Reskin Studio cannot start: ${message.split('\n')[0]}`);
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '') && error instanceof Error)
    console.error(error.stack);
  process.exit(1);
}
