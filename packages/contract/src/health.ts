import { z } from 'zod';

/** GET /api/health (liveness): the process runs and answers. */
export const livenessSchema = z.object({ status: z.literal('ok') });

/** How one dependency answered the readiness check. */
export const readinessCheckSchema = z
  .enum(['ok', 'unavailable'])
  .describe('ok, or unavailable: the check failed or did not answer within 2 s (the server log says why)');

/** The volumes the server writes to on its own machine, as the free-space guard names them. */
export const volumeIdSchema = z
  .enum(['data', 'temp'])
  .describe(
    'data: DATA_DIR (the SQLite database, and the files with STORAGE=local); temp: the temporary folder (zip uploads)',
  );

/** The free space of one volume the server writes to, against its threshold (MIN_FREE_SPACE_PERCENT / _MB). */
export const volumeSpaceSchema = z.object({
  volume: volumeIdSchema,
  freeBytes: z.number().int().describe('Bytes the server may still write'),
  totalBytes: z.number().int(),
  minFreeBytes: z
    .number()
    .int()
    .describe('Below this, uploads, zip uploads and generation answer 507 STORAGE_FULL'),
  low: z.boolean().describe('freeBytes is under minFreeBytes'),
});

/**
 * GET /api/health/ready (readiness): 200 with status ok when the database answers `select 1` and storage takes
 * a write; otherwise 503 with status unavailable, the same body naming the part that failed. This is a status
 * report for load balancers and orchestrators, not an error, so it is not the error envelope. Low free space
 * (`checks.space: low`) does not make the server unready: it still serves, and lets an admin free space; a
 * monitor alerts on it.
 */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({
    database: readinessCheckSchema,
    storage: readinessCheckSchema,
    space: z
      .enum(['ok', 'low', 'unavailable'])
      .describe(
        'low: a volume is under its free-space threshold (see `space`); unavailable: it could not be measured',
      ),
  }),
  space: z.array(volumeSpaceSchema),
});

export type Liveness = z.infer<typeof livenessSchema>;
export type Readiness = z.infer<typeof readinessSchema>;
export type ReadinessCheck = z.infer<typeof readinessCheckSchema>;
export type VolumeId = z.infer<typeof volumeIdSchema>;
export type VolumeSpace = z.infer<typeof volumeSpaceSchema>;
