// Free of zod, like roles, limits, messages and permissions: the web's landing page imports it and loads no schema
// library. The schema of a document's text is in legal-text.ts.

/**
 * The legal documents the Register form's data-protection checkbox links to (SPEC §3 "Register"): the name in
 * GET /api/legal/{document} and in the web route, and the title shown on the page.
 */
export const legalDocuments = [
  { document: 'terms-of-use', title: 'Terms of Use' },
  { document: 'user-agreement', title: 'User Agreement' },
  { document: 'privacy-policy', title: 'Privacy Policy' },
] as const;

/** A legal document's name: terms-of-use, user-agreement or privacy-policy. */
export type LegalDocument = (typeof legalDocuments)[number]['document'];

/** The entry of legalDocuments with this name, or undefined for any other text. */
export function findLegalDocument(name: string): (typeof legalDocuments)[number] | undefined {
  return legalDocuments.find((entry) => entry.document === name);
}
