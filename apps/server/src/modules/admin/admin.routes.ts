import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { servicesUpdateResponseSchema } from '@reskin/contract';

/** GET /admin/update, the admin screen's "Update" button (SPEC §7, DESIGN.md "Games, files, variants"). */
export async function adminRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/admin/update',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Services update',
        description:
          'Re-generates every Ready game whose files changed since its last generation and removes stored files ' +
          'that no record points to, then answers a summary. Until games and stored files exist (the games ' +
          'issue), it has nothing to do and answers an empty summary.',
        response: { 200: servicesUpdateResponseSchema },
      },
    },
    async () => ({ regeneratedGameIds: [], removedStoredFiles: 0 }),
  );
}
