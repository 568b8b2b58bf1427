import { z } from 'zod';

/** GET /api/health (liveness): the process runs and answers. */
export const livenessSchema = z.object({ status: z.literal('ok') });

/** How one dependency answered the readiness check. */
export const readinessCheckSchema = z
  .enum(['ok', 'unavailable'])
  .describe('ok, or unavailable: the check failed or did not answer within 2 s (the server log says why)');

/**
 * GET /api/health/ready (readiness): 200 with status ok when the database answers `select 1` and storage takes
 * a write; otherwise 503 with status unavailable, the same body naming the part that failed. This is a status
 * report for load balancers and orchestrators, not an error, so it is not the error envelope.
 */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ database: readinessCheckSchema, storage: readinessCheckSchema }),
});

export type Liveness = z.infer<typeof livenessSchema>;
export type Readiness = z.infer<typeof readinessSchema>;
export type ReadinessCheck = z.infer<typeof readinessCheckSchema>;
