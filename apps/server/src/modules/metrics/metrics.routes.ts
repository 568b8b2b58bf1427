import type { FastifyInstance } from 'fastify';
import { tokenMatches, type Metrics } from './metrics';

export interface MetricsRoutesOptions {
  metrics: Metrics;
  /** METRICS_TOKEN; unset: the route answers 404 to everyone. */
  token: string | undefined;
}

/**
 * GET /api/metrics (decision 0031): the Prometheus text format, to `Authorization: Bearer <METRICS_TOKEN>`
 * only. Without METRICS_TOKEN, and to a missing or wrong token, it answers the 404 of an unknown route, so a
 * scan learns nothing (Prometheus shows the failed scrape's status).
 */
export async function metricsRoutes(app: FastifyInstance, { metrics, token }: MetricsRoutesOptions) {
  app.get(
    '/metrics',
    {
      logLevel: 'warn',
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (text format 0.0.4), to the METRICS_TOKEN bearer only',
        description:
          "Answers `text/plain; version=0.0.4` with the server's metrics to `Authorization: Bearer <METRICS_TOKEN>`. " +
          'Without METRICS_TOKEN set, and to a missing or wrong token, the 404 of an unknown route. ' +
          'The families are listed in docs/operations.md.',
        security: [],
        errors: { 404: 'METRICS_TOKEN is not set, or the bearer token is missing or wrong (NOT_FOUND).' },
      },
    },
    async (request, reply) => {
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (!token || !match?.[1] || !tokenMatches(match[1], token)) return reply.callNotFound();
      return reply.type(metrics.contentType).send(await metrics.scrape());
    },
  );
}
