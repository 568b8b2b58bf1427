import { z } from 'zod';

/**
 * GET /api/legal/{document}: the document's title and its plain text, the operator's own (LEGAL_DIR) or the
 * server's placeholder. Blank lines separate paragraphs.
 */
export const legalDocumentSchema = z.object({ title: z.string(), text: z.string() });
export type LegalDocumentText = z.infer<typeof legalDocumentSchema>;
