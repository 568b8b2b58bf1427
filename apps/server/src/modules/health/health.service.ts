import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Readiness, ReadinessCheck, VolumeSpace } from '@reskin/contract';
import { sql } from '../../db/database';
import type { Database } from '../../db/schema';
import type { FreeSpaceGuard } from '../../storage/free-space';
import type { Storage } from '../../storage/storage';

/** Each readiness check gives up after this long, so the probe answers even when a dependency hangs. */
const checkTimeoutMs = 2000;

/** Rejects when `work` has not settled within `ms`; `work` itself is left to finish or fail on its own. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/health/ready: whether this server can do its work now. Cheap enough to call every few seconds: one
 * `select 1`, one tiny object written to storage and removed again, and a statfs of each guarded volume (low
 * space is reported, and does not make the server unready: it still serves, and lets an admin free space).
 */
export class HealthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: Storage,
    private readonly space: FreeSpaceGuard,
    private readonly log: FastifyBaseLogger,
  ) {}

  async readiness(): Promise<Readiness> {
    const [database, storage, space] = await Promise.all([
      this.check('database', () => sql`select 1`.execute(this.db)),
      this.check('storage', async () => {
        // A key of its own per probe: probes of several servers on one storage never collide. Services update
        // removes a probe that a crash left behind.
        const key = `health-probes/${randomBytes(8).toString('hex')}`;
        await this.storage.put(key, Buffer.from('ok'));
        await this.storage.delete(key);
      }),
      this.spaceReport(),
    ]);
    return {
      status: database === 'ok' && storage === 'ok' ? 'ok' : 'unavailable',
      checks: { database, storage, space: space.check },
      space: space.volumes,
    };
  }

  private async spaceReport(): Promise<{ check: 'ok' | 'low' | 'unavailable'; volumes: VolumeSpace[] }> {
    try {
      const volumes = await within(checkTimeoutMs, this.space.report());
      const low = volumes.filter((volume) => volume.low);
      if (low.length > 0)
        this.log.warn(
          { volumes: low },
          'readiness: low free space; uploads, zip uploads and generation are refused',
        );
      return { check: low.length > 0 ? 'low' : 'ok', volumes };
    } catch (error) {
      this.log.warn({ err: error }, 'readiness: the free space could not be measured');
      return { check: 'unavailable', volumes: [] };
    }
  }

  private async check(name: string, work: () => Promise<unknown>): Promise<ReadinessCheck> {
    try {
      await within(checkTimeoutMs, work());
      return 'ok';
    } catch (error) {
      this.log.warn({ err: error }, `readiness: the ${name} check failed`);
      return 'unavailable';
    }
  }
}
