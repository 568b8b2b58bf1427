import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { legalDocumentSchema, legalDocuments } from '@reskin/contract';
import { notFound } from '../../lib/errors';
import type { LegalService } from './legal.service';

export interface LegalRoutesOptions {
  legal: LegalService;
}

const names = legalDocuments.map((entry) => entry.document).join(', ');

/** The legal pages the Register form links to; open to everyone. */
export async function legalRoutes(app: FastifyInstance, { legal }: LegalRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/legal/:document',
    {
      schema: {
        tags: ['legal'],
        summary: "A legal document's title and plain text (the operator's from LEGAL_DIR, or a placeholder)",
        // Any name reaches the handler, so an unknown document is a 404 like any unknown object.
        params: z.object({ document: z.string().max(100).describe(names) }),
        response: { 200: legalDocumentSchema },
        errors: { 404: `No legal document of this name; the names are ${names} (NOT_FOUND).` },
      },
    },
    async (request) => {
      const document = legal.find(request.params.document);
      if (!document) throw notFound('Legal document');
      return document;
    },
  );
}
