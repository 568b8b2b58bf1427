import { findLegalDocument, type LegalDocument, type LegalDocumentText } from '@reskin/contract';

/** The server's text of a legal document until the operator publishes their own (LEGAL_DIR). */
function placeholderText(title: string, productName: string): string {
  return [
    `The operator of this ${productName} site has not published its own ${title} yet.`,
    'This page is a placeholder, not an agreement. Ask the administrator who gave you access which terms apply ' +
      `to your use of ${productName}, and how your personal data (your name, email address and phone number) is ` +
      'handled.',
  ].join('\n\n');
}

/** GET /api/legal/{document}: the Terms of Use, User Agreement and Privacy Policy. */
export class LegalService {
  constructor(
    /** The operator's texts (config LEGAL_DIR); the others get a placeholder. */
    private readonly texts: Partial<Record<LegalDocument, string>>,
    private readonly productName: string,
  ) {}

  /** The document's title and text, or undefined when no legal document has this name. */
  find(name: string): LegalDocumentText | undefined {
    const entry = findLegalDocument(name);
    if (!entry) return undefined;
    return {
      title: entry.title,
      text: this.texts[entry.document] ?? placeholderText(entry.title, this.productName),
    };
  }
}
