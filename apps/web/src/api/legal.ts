import { legalDocumentSchema, type LegalDocument } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse } from '../lib/api-client';

export const legalKeys = {
  all: ['legal'] as const,
  document: (document: LegalDocument) => [...legalKeys.all, document] as const,
};

/** GET /legal/{document}: the title and plain text of a legal document (the operator's, or a default). */
export const getLegalDocument = (document: LegalDocument) =>
  apiParse(legalDocumentSchema, `/legal/${document}`);

export const useLegalDocument = (document: LegalDocument) =>
  useQuery({
    queryKey: legalKeys.document(document),
    queryFn: () => getLegalDocument(document),
    staleTime: Infinity,
  });
