import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { livenessSchema, readinessSchema } from '@reskin/contract';
import type { HealthService } from './health.service';

/** Probes for load balancers and orchestrators: no login, no rate limit, logged only when they warn. */
export async function healthRoutes(app: FastifyInstance, { health }: { health: HealthService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['health'];

  r.get(
    '/health',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Liveness: the process runs',
        description:
          'Answers 200 as long as the server process runs; it checks nothing else (see /health/ready).',
        security: [],
        response: { 200: livenessSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  r.get(
    '/health/ready',
    {
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Readiness: the database and storage work',
        description:
          'Runs `select 1` on the database and writes and removes a tiny object in storage, each with a 2 s limit. ' +
          '200 when both succeed; 503 otherwise, with the same body naming the part that failed ' +
          '(`checks.database` or `checks.storage` is `unavailable`). A status report, not the error envelope. ' +
          '`checks.space` is `low` while DATA_DIR or the temporary folder is under its free-space threshold ' +
          '(uploads, zip uploads and Gen. then answer 507 STORAGE_FULL); it does not fail the probe. `space` lists each volume.',
        security: [],
        response: { 200: readinessSchema, 503: readinessSchema },
      },
    },
    async (_request, reply) => {
      const readiness = await health.readiness();
      return reply.status(readiness.status === 'ok' ? 200 : 503).send(readiness);
    },
  );
}
