import type { Storage } from './storage';

/** Objects copied at a time. */
const concurrency = 4;

export interface CopySummary {
  copied: number;
  /** Already in the target with the same size (an earlier run copied them). */
  skipped: number;
  bytes: number;
}

/**
 * `npm run storage:copy` (docs/operations.md "Moving an existing install to S3"): copies every object of `from`
 * to `to` under the same key, streaming, a few at a time. An object the target already holds with the same size
 * is skipped, so a run cut off halfway can simply run again. `progress` hears a line every 100 objects.
 */
export async function copyStorage(
  from: Storage,
  to: Storage,
  progress: (line: string) => void,
): Promise<CopySummary> {
  const summary: CopySummary = { copied: 0, skipped: 0, bytes: 0 };
  const inFlight = new Set<Promise<void>>();
  const copy = async (key: string) => {
    const [source, target] = await Promise.all([from.stat(key), to.stat(key)]);
    if (!source) return; // deleted since it was listed
    if (target?.size === source.size) {
      summary.skipped++;
    } else {
      const object = await from.get(key);
      if (!object) return;
      const { size } = await to.put(key, object.stream);
      summary.copied++;
      summary.bytes += size;
    }
    const seen = summary.copied + summary.skipped;
    if (seen % 100 === 0)
      progress(
        `${seen} objects: ${summary.copied} copied (${megabytes(summary.bytes)}), ${summary.skipped} already there`,
      );
  };
  for await (const { key } of from.list()) {
    const job = copy(key).finally(() => inFlight.delete(job));
    inFlight.add(job);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  return summary;
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
