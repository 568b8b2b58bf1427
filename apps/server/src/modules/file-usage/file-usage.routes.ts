import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fileUsageListSchema, filePageQuerySchema, gameIdParamSchema } from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import { revalidatedRoutes } from '../../plugins/revalidation';
import type { FileUsageService } from './file-usage.service';

/** GET /games/{id}/usage: which files of a game plays really load (decision 0023). */
export async function fileUsageRoutes(app: FastifyInstance, { usage }: { usage: FileUsageService }) {
  // Read whenever a workbench or the game files screen opens: revalidated (decision 0063).
  await revalidatedRoutes(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().get(
      '/games/:id/usage',
      {
        onRequest: app.requireUser,
        schema: {
          tags: ['games'],
          summary:
            "Which of a game's files plays load: loads, first seen, whether at a play's start (admins, or the game's assigned artists; demo accounts 403); by path, all or a page after `after`, at most `limit`",
          params: gameIdParamSchema,
          querystring: filePageQuerySchema,
          response: { 200: fileUsageListSchema },
        },
      },
      async (request) => usage.forGame(currentUser(request), request.params.id, request.query),
    );
  });
}
