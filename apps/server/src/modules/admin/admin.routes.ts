import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { servicesUpdateResponseSchema } from '@reskin/contract';
import type { ServicesUpdateService } from './services-update.service';

/** GET /admin/update, the admin screen's "Update" button (SPEC §7, DESIGN.md "Games, files, variants"). */
export async function adminRoutes(
  app: FastifyInstance,
  { servicesUpdate }: { servicesUpdate: ServicesUpdateService },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/admin/update',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Services update',
        description:
          'Re-generates every Ready game whose files changed since its last generation (or whose generated copies ' +
          'are missing) and removes stored files that no record points to, and the temporary files of writes a ' +
          'crash cut off, once they are an hour old; then answers a summary (removedStoredFiles counts both).',
        response: { 200: servicesUpdateResponseSchema },
      },
    },
    async () => servicesUpdate.run(),
  );
}
