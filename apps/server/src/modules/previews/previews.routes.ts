import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { revokedTicketDoc } from '../../lib/download-tickets';
import type { PreviewsService } from './previews.service';

export interface PreviewsRoutesOptions {
  previews: PreviewsService;
}

/**
 * GET /previews/{grant}/{name} (decision 0038): a game image's small WebP copy on the app's own origin,
 * for `<img>`, which sends no Authorization header: the URL is the credential (a grant the file lists sign).
 */
export async function previewsRoutes(app: FastifyInstance, { previews }: PreviewsRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/previews/:grant/:name',
    {
      schema: {
        tags: ['previews'],
        summary:
          "An image's preview or thumbnail (WebP), by the URL a file list answered; the URL is the credential",
        // No session: the grant in the path says who may see it until when (a forged, expired or unknown one is a 404).
        security: [],
        params: z.object({ grant: z.string().min(1).max(512), name: z.string().min(1).max(40) }),
        errors: { 403: revokedTicketDoc },
      },
    },
    async (request, reply) => {
      const served = await previews.serve(
        request.params.grant,
        request.params.name,
        request.headers['if-none-match'],
      );
      reply
        .header('Cache-Control', `private, max-age=${served.maxAgeSeconds}`)
        .header('ETag', served.etag)
        .header('X-Content-Type-Options', 'nosniff');
      if (!served.body) return reply.code(304).send();
      return reply.type('image/webp').send(served.body);
    },
  );
}
