import type { LegalDocument } from '@reskin/contract';
import Card from 'react-bootstrap/Card';
import { useLegalDocument } from '../../../api/legal';
import { Loading } from '../../../components/ui/loading';

/** Plain text in paragraphs: a blank line starts a new one; single line breaks stay as they are. */
export function paragraphsOf(text: string): string[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}

/** An open page with one legal document (the Register form's data-protection links lead here). */
export function LegalPage({ document }: { document: LegalDocument }) {
  const legal = useLegalDocument(document);

  if (!legal.data) return legal.isPending ? <Loading /> : null;
  return (
    <Card className="mx-auto" style={{ maxWidth: '48rem' }}>
      <Card.Header as="h1" className="fs-4">
        {legal.data.title}
      </Card.Header>
      <Card.Body>
        {paragraphsOf(legal.data.text).map((paragraph, index) => (
          <p key={index} style={{ whiteSpace: 'pre-line' }}>
            {paragraph}
          </p>
        ))}
      </Card.Body>
    </Card>
  );
}
